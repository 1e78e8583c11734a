// @vitest-environment node
// The audit trail shows each entry's action in French (src/resources/audit_logs/parts.tsx, ActionLabel): every action
// the server records has its label, so no office user reads "payment_statement.apply" or "bulk_dpec". The actions are
// read from the server's sources; an action built from a variable names its values here, or the test fails.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BULK_ACTIONS } from '#domain/bulk';
import type { RunKind } from '#domain/pec';
import { fr } from '../../src/i18n/fr';
import { ACTION_OPTIONS } from '../../src/resources/audit_logs/actions';

const SERVER = path.resolve(__dirname, '../../server');
const RUN_KINDS: RunKind[] = ['dpec', 'billing'];

/** The values of each variable part of a recorded action ("pec_dossier.bulk_${action}"). */
const EXPANSIONS: Record<string, string[]> = {
  'bulk_${action}': BULK_ACTIONS.map((a) => `bulk_${a}`),
  'bulk_${row.action}': BULK_ACTIONS.map((a) => `bulk_${a}`),
  '${kind}_start': RUN_KINDS.map((k) => `${k}_start`),
  'callback_${type}': ['scraping', 'dpec', 'billing'].map((t) => `callback_${t}`),
  'run_${outcome}': ['error', 'timeout'].map((o) => `run_${o}`),
  '${purpose}_refused': ['password_reset', 'invitation'].map((p) => `${p}_refused`),
  '${action}': ['payment', 'payment_cancel', 'payment_undo', 'payment_detach'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === 'migrations' ? [] : sourceFiles(file);
    return name.endsWith('.ts') ? [file] : [];
  });
}

/** The event part (after the entity) of every action written as `action: '…'` or `action: \`…\`` in the server. */
function recordedEvents(): string[] {
  const events = new Set<string>();
  for (const file of sourceFiles(SERVER)) {
    for (const [, action] of readFileSync(file, 'utf8').matchAll(/\baction: ['`]([a-z_]+\.[^'`]+)['`]/g)) {
      const event = action!.slice(action!.indexOf('.') + 1);
      if (!event.includes('${')) events.add(event);
      else if (EXPANSIONS[event]) for (const value of EXPANSIONS[event]) events.add(value);
      else throw new Error(`${path.relative(SERVER, file)} : action « ${action} » sans valeurs dans EXPANSIONS`);
    }
  }
  return [...events].sort();
}

describe('audit trail labels', () => {
  it('has a French label for every action the server records', () => {
    const events = recordedEvents();
    // The scan finds the actions (a broken pattern would pass with nothing).
    expect(events).toEqual(expect.arrayContaining(['apply', 'bulk_assign', 'dpec_start', 'summary', 'two_factor_enable']));
    const labels = fr.pecflow.settings.audit.actions as Record<string, string>;
    expect(events.filter((event) => !labels[event])).toEqual([]);
  });

  it('lets the « Action » filter choose every money and account-security event the server records', () => {
    const selectable = new Set(ACTION_OPTIONS.flatMap((option) => option.actions.map((action) => action.slice(action.indexOf('.') + 1))));
    const watched = recordedEvents().filter((event) =>
      /^(payment|apply$|undo$|cancel$|line_|bulk_(dpec|billing|archive|assign)$|summary$|password_|two_factor_|recovery_code)/.test(event),
    );
    expect(watched).toEqual(expect.arrayContaining(['apply', 'cancel', 'payment_detach', 'password_change', 'two_factor_enable', 'bulk_dpec']));
    expect(watched.filter((event) => !selectable.has(event))).toEqual([]);
    // Each option is told apart by its first action (the filter's value read back from the URL).
    const firsts = ACTION_OPTIONS.map((option) => option.actions[0]);
    expect(new Set(firsts).size).toBe(firsts.length);
  });
});
