// Every resource of the API. Adding an entity = its table and one declaration, listed here.
import { permissionCatalogue } from '../hydra/catalogue';
import type { ResourceDeclaration } from '../hydra/types';
import { auditLogsResource } from './auditLogs';
import { companiesResource } from './companies';
import { configsResource } from './configs';
import { credentialsResource } from './credentials';
import { holdingsResource } from './holdings';
import { mutualsResource } from './mutuals';
import { networksResource } from './networks';
import { paymentStatementsResource } from './paymentStatements';
import { pecDocumentsResource } from './pecDocuments';
import { pecDossiersResource } from './pecDossiers';
import { pecPaymentsResource } from './pecPayments';
import { pecViewsResource } from './pecViews';
import { pecNotesResource } from './pecNotes';
import { prescribersResource } from './prescribers';
import { rolesResource } from './roles';
import { shopsResource } from './shops';
import { softwareResource } from './software';
import { usersResource } from './users';

export const RESOURCES: ResourceDeclaration[] = [
  holdingsResource,
  companiesResource,
  shopsResource,
  usersResource,
  rolesResource,
  mutualsResource,
  networksResource,
  softwareResource,
  credentialsResource,
  configsResource,
  auditLogsResource,
  pecDossiersResource,
  prescribersResource,
  paymentStatementsResource,
  pecPaymentsResource,
  pecViewsResource,
  pecDocumentsResource,
  pecNotesResource,
];

/** The permission catalogue these declarations make (the server's registry builds the same). */
export const PERMISSION_CATALOGUE = permissionCatalogue(RESOURCES);
