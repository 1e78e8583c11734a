// Rules given as data (a declaration's constraints, the docs' pecflow:constraints) make the schema the server
// validates with and a form can check: French messages, empty optional values stored as null, defaults.
import { describe, expect, it } from 'vitest';
import { schemaFromConstraints } from '#domain/constraints';
import { pecFormSchema } from '#domain/pecSchemas';
import { requiredIn } from '#domain/validation';

const schema = schemaFromConstraints({
  lastName: { type: 'string', required: true, constraints: { min: 2, message: 'Le nom doit contenir au moins 2 caractères' } },
  code: { type: 'string', required: true, constraints: { pattern: '^\\d{11}$', message: 'Le code doit contenir 11 chiffres' } },
  kind: {
    type: 'string',
    required: true,
    choices: [
      { id: 'a', name: 'Alpha' },
      { id: 'b', name: 'Bêta' },
      { id: 'c', name: 'Gamma' },
    ],
  },
  status: {
    type: 'string',
    required: false,
    choices: [
      { id: 'Active', name: 'Activé' },
      { id: 'Inactive', name: 'Désactivé' },
    ],
    default: 'Active',
  },
  email: { type: 'string', required: false, constraints: { email: true } },
  site: { type: 'string', required: false, constraints: { url: true, message: 'Adresse du site invalide' } },
  city: { type: 'string', required: false },
  count: { type: 'integer', required: false, constraints: { min: 0, max: 10 } },
  owner: { type: 'reference', target: 'holdings', required: false },
  shops: { type: 'references', target: 'shops', required: false },
});

const messages = (input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('schemaFromConstraints', () => {
  it('accepts a valid record: trimmed texts, empty optional values as null, the default filled in, references as ids', () => {
    expect(
      schema.parse({
        lastName: '  Martin ',
        code: '12345678901',
        kind: 'b',
        email: '',
        city: null,
        count: 3,
        owner: '/api/holdings/4',
        shops: ['/api/shops/2', 3, '/api/shops/2'],
      }),
    ).toEqual({
      lastName: 'Martin',
      code: '12345678901',
      kind: 'b',
      status: 'Active',
      email: null,
      site: null,
      city: null,
      count: 3,
      owner: 4,
      shops: [2, 3],
    });
  });

  it('says what is wrong with each field, in French', () => {
    expect(
      messages({
        lastName: 'M',
        code: '123',
        kind: 'z',
        status: 'Archived',
        email: 'pas-un-email',
        site: 'javascript:alert(1)',
        count: 11,
        owner: 'nothing',
        shops: ['/api/holdings/1'],
      }),
    ).toEqual({
      lastName: 'Le nom doit contenir au moins 2 caractères',
      code: 'Le code doit contenir 11 chiffres',
      kind: 'Valeur invalide : Alpha, Bêta ou Gamma',
      status: 'Valeur invalide : Activé ou Désactivé',
      email: 'Email invalide',
      site: 'Adresse du site invalide',
      count: 'Nombre entier attendu',
      owner: 'Référence invalide',
      shops: 'Référence invalide',
    });
    expect(messages({})).toMatchObject({
      lastName: 'Le nom doit contenir au moins 2 caractères',
      code: 'Le code doit contenir 11 chiffres',
      kind: expect.stringContaining('Valeur invalide'),
    });
    expect(messages({ lastName: 'Martin', code: '12345678901', kind: 'a', city: 'x'.repeat(256) })).toEqual({
      city: 'Ce champ ne peut pas dépasser 255 caractères',
    });
  });
});

describe('the fields a form marks « * »', () => {
  it('are those its rule refuses missing or empty: the PEC creation form’s network, centre, mutual and the patient’s numbers', () => {
    const required = Object.keys(pecFormSchema.shape).filter((field) => requiredIn(pecFormSchema, field));
    expect(required.sort()).toEqual(['mutualId', 'networkId', 'numeroDevisAssure', 'numeroDossierAssure', 'shopId']);
  });
});
