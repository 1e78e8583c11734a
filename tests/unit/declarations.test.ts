// Every field of every declaration carries its French label: the generated screens, the audit trail's changed
// fields and the permission catalogue show it, never the API's own name.
import { describe, expect, it } from 'vitest';
import { PERMISSION_CATALOGUE, RESOURCES } from '../../server/resources';
import { SYSTEM_SETTINGS } from '#domain/systemSettings';

describe('resource declarations', () => {
  it('label every field in French', () => {
    const unlabelled = RESOURCES.flatMap((decl) =>
      Object.entries(decl.fields)
        .filter(([, field]) => !field.label?.trim())
        .map(([name]) => `${decl.name}.${name}`),
    );
    expect(unlabelled).toEqual([]);
  });

  it('write their names, tabs and labels, the system settings and the permissions with the typographic apostrophe', () => {
    const texts = RESOURCES.flatMap((decl) => [
      decl.label.singular,
      decl.label.plural,
      decl.settingsTab?.label,
      ...Object.values(decl.fields).flatMap((field) => [field.label, field.description]),
    ]);
    // The Système tab's settings and the role editor's permissions too.
    texts.push(...SYSTEM_SETTINGS.map((setting) => setting.description), ...PERMISSION_CATALOGUE.flatMap((p) => [p.label, p.description]));
    expect(texts).toContain('Journal d’audit');
    expect(texts.filter((text) => text?.includes("'"))).toEqual([]);
  });

  it('end their search placeholders with the one-character ellipsis, never three dots', () => {
    const placeholders = RESOURCES.map((decl) => decl.list?.searchPlaceholder).filter((text) => text !== undefined);
    expect(placeholders).toContain('Rechercher (nom, RPPS, ville)…');
    expect(placeholders.filter((text) => text.includes('...'))).toEqual([]);
  });
});
