// Prescripteurs: the doctors who prescribe the aids (issue 11), owned by an organisation like its centres.
// Declared the new way (defineResource): no schema, screen or permission code of its own; everything follows from
// this declaration (its Hydra class, audit name, id column and default sort, by lastName its display field, derived).
import { pecDossiers, prescribers } from '../db/schema';
import { defineResource } from '../hydra/define';
import { reference, text, timestamps } from '../hydra/fields';
import { holdingOwned } from '../hydra/tenancy';
import { PEC_PERMISSIONS } from '#domain/permissions';
import { settingsPermissions } from '#domain/resources';
import { ENTITY_STATUS_CHOICES } from '#domain/schemas';
import { stillAttached } from './messages';

const same = (values: string[]) => values.map((id) => ({ id, name: id }));

export const prescribersResource = defineResource({
  name: 'prescribers',
  label: { singular: 'Prescripteur', plural: 'Prescripteurs' },
  table: prescribers,
  fields: {
    civility: text(prescribers.civility, { required: true, label: 'Civilité', choices: same(['M.', 'Mme', 'Dr', 'Pr']), default: 'Dr' }),
    lastName: text(prescribers.lastName, {
      required: true,
      iri: 'name',
      label: 'Nom',
      constraints: { min: 2, message: 'Le nom doit contenir au moins 2 caractères' },
    }),
    firstName: text(prescribers.firstName, { label: 'Prénom' }),
    specialty: text(prescribers.specialty, {
      required: true,
      label: 'Spécialité',
      choices: same(['ORL', 'Médecin généraliste', 'Ophtalmologiste', 'Autre']),
      default: 'ORL',
    }),
    rpps: text(prescribers.rpps, {
      required: true,
      label: 'RPPS',
      description: 'Répertoire partagé des professionnels de santé (11 chiffres)',
      constraints: {
        pattern: '^\\d{11}$',
        message: 'RPPS doit contenir 11 chiffres',
        unique: 'Ce RPPS est déjà celui d’un autre prescripteur de votre organisation',
      },
    }),
    city: text(prescribers.city, { label: 'Ville' }),
    phone: text(prescribers.phone, { label: 'Téléphone', constraints: { max: 50 } }),
    email: text(prescribers.email, { iri: 'email', label: 'Email', constraints: { email: true } }),
    status: text(prescribers.status, { label: 'Statut', choices: ENTITY_STATUS_CHOICES, default: 'Active' }),
    holding: reference('holdings', prescribers.holdingId, { embed: ['name'], label: 'Organisation', description: 'La vôtre par défaut' }),
    ...timestamps(prescribers),
  },
  permissions: settingsPermissions('settings.prescribers'),
  permissionModule: 'patient',
  // A PEC file names its prescriber (issue 15): who creates files reads their organisation's to choose one.
  readAccess: { permission: PEC_PERMISSIONS.create, scope: () => undefined },
  tenancy: holdingOwned(prescribers.holdingId),
  settingsTab: { position: 12 },
  list: {
    columns: ['civility', 'lastName', 'firstName', 'specialty', 'rpps', 'city', 'status'],
    filters: [
      { field: 'status', kind: 'choice' },
      { field: 'specialty', kind: 'choice' },
    ],
    searchPlaceholder: 'Rechercher (nom, RPPS, ville)…',
    empty: 'Aucun prescripteur trouvé',
    scopeToHolding: true,
  },
  form: {
    fields: ['civility', 'lastName', 'firstName', 'specialty', 'rpps', 'status', 'holding', 'city', 'phone', 'email'],
    defaults: { civility: 'Dr', specialty: 'ORL', status: 'Active' },
  },
  search: [prescribers.lastName, prescribers.firstName, prescribers.rpps, prescribers.city],
  filters: { status: prescribers.status, specialty: prescribers.specialty, holding: prescribers.holdingId },
  rangeFilters: { createdAt: prescribers.createdAt },
  order: {
    lastName: prescribers.lastName,
    firstName: prescribers.firstName,
    specialty: prescribers.specialty,
    city: prescribers.city,
    status: prescribers.status,
    createdAt: prescribers.createdAt,
    id: prescribers.id,
  },
  // A file names its prescriber (issue 15): the prescriber stays while files do.
  deletion: {
    mode: 'hard',
    refuseWhileReferenced: [
      {
        table: pecDossiers,
        column: pecDossiers.prescriberId,
        message: stillAttached({ one: 'demande de PEC', many: 'demandes de PEC', feminine: true }, 'à ce prescripteur', 'lié'),
      },
    ],
  },
});
