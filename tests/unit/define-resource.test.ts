// defineResource(): the parts of a declaration it derives match what the declarations wrote by hand.
import { describe, expect, it } from 'vitest';
import { prescribers } from '../../server/db/schema';
import { auditNameOf, classNameOf, defineResource } from '../../server/hydra/define';
import { text, timestamps } from '../../server/hydra/fields';
import { holdingOwned } from '../../server/hydra/tenancy';
import { RESOURCES } from '../../server/resources';
import { settingsPermissions } from '#domain/resources';

describe('defineResource', () => {
  it("derives the Hydra class and the audit name from the collection's name, as the declarations spell them", () => {
    const special = new Set(['audit_logs', 'configs', 'credential_software']);
    for (const decl of RESOURCES) {
      expect(classNameOf(decl.name), decl.name).toBe(decl.className);
      if (!special.has(decl.name)) expect(auditNameOf(decl.name), decl.name).toBe(decl.auditName);
    }
    expect(classNameOf('companies')).toBe('Company');
    expect(auditNameOf('payment_statements')).toBe('payment_statement');
  });

  it('defaults the id column, the sort (list columns of the table, creation date, id; display field first) and a hard delete', () => {
    const decl = defineResource({
      name: 'prescribers',
      label: { singular: 'Prescripteur', plural: 'Prescripteurs' },
      table: prescribers,
      fields: {
        lastName: text(prescribers.lastName, { required: true, iri: 'name', label: 'Nom' }),
        city: text(prescribers.city, { label: 'Ville' }),
        ...timestamps(prescribers),
      },
      permissions: settingsPermissions('settings.prescribers'),
      tenancy: holdingOwned(prescribers.holdingId),
      list: { columns: ['city', 'lastName'], searchPlaceholder: 'Rechercher', empty: 'Aucun prescripteur trouvé' },
    });
    expect(decl.idColumn).toBe(prescribers.id);
    expect(decl.order).toEqual({ city: prescribers.city, lastName: prescribers.lastName, createdAt: prescribers.createdAt, id: prescribers.id });
    expect(decl.defaultOrder).toEqual(['lastName', 'asc']);
    expect(decl.deletion).toEqual({ mode: 'hard' });
    expect(decl.className).toBe('Prescriber');
    expect(decl.auditName).toBe('prescriber');
  });
});

describe('settingsPermissions', () => {
  it('gives view, create, update (or edit) and delete; export only when asked (the spec names it for its entities)', () => {
    expect(settingsPermissions('settings.prescribers')).toEqual({
      view: 'settings.prescribers.view',
      create: 'settings.prescribers.create',
      update: 'settings.prescribers.update',
      delete: 'settings.prescribers.delete',
    });
    expect(settingsPermissions('settings.software', { update: 'edit' }).update).toBe('settings.software.edit');
    expect(settingsPermissions('settings.holdings', { export: true }).export).toBe('settings.holdings.export');
  });
});
