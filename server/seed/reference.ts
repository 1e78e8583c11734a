// Demo reference data: networks and real French mutuals (platform-wide), and per organisation its software,
// the robot's credentials (encrypted) and which credential each centre uses.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/connect';
import { credentialSoftware, mutuals, networks, shopCredentials, shops, software } from '../db/schema';
import type { SecretBox } from '../crypto';
import type { DemoOrganisations } from './organisations';

const NETWORKS = [
  { name: 'Itelis', code: 'ITELIS', description: 'Réseau de soins d’AXA et de ses partenaires', isDefault: false },
  { name: 'Santéclair', code: 'SANTECLAIR', description: 'Plateforme de services santé (Allianz, MAAF, MMA…)', isDefault: true },
  { name: 'Kalixia', code: 'KALIXIA', description: 'Réseau de soins de Malakoff Humanis et partenaires', isDefault: false },
  { name: 'Carte Blanche', code: 'CARTEBLANCHE', description: 'Carte Blanche Partenaires', isDefault: false },
  { name: 'Sévéane', code: 'SEVEANE', description: 'Réseau de soins de Groupama et Pro BTP', isDefault: false },
];

/** About thirty mutuals, each under the network it usually works with. */
const MUTUALS: Record<string, string[]> = {
  ITELIS: ['AXA', 'Intériale', 'Mutuelle Générale', 'Henner', 'Alptis', 'Vivinter'],
  SANTECLAIR: ['Allianz', 'MAAF', 'MMA', 'Swiss Life', 'Ociane', 'Smatis'],
  KALIXIA: ['Malakoff Humanis', 'Apicil', 'Klesia', 'Mercer', 'April', 'Mutuelle Bleue'],
  CARTEBLANCHE: ['Generali', 'AG2R La Mondiale', 'Harmonie Mutuelle', 'MGEN', 'Aésio', 'MNT'],
  SEVEANE: ['Groupama', 'Pro BTP', 'MACIF', 'MAIF', 'Mutuelle Familiale', 'Gan Assurances'],
};

const code = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '')
    .toUpperCase()
    .slice(0, 12);

interface SoftwareSeed {
  label: string;
  type: 'general' | 'mutual' | 'network' | 'medical' | 'billing';
  vendor: string;
  version: string;
  apiUrl: string | null;
  documentationUrl: string | null;
  description: string;
  /** Credentials of this software: [contextType, contextName, loginPage]. */
  credentials: { contextType: 'general' | 'mutual' | 'network'; contextName: string | null; loginPage: string }[];
}

const SOFTWARE: Record<string, SoftwareSeed[]> = {
  horizon: [
    {
      label: 'Auditdata Manage',
      type: 'medical',
      vendor: 'Auditdata',
      version: '4.12',
      apiUrl: 'https://api.auditdata.example/v4',
      documentationUrl: 'https://docs.auditdata.example',
      description: 'Logiciel métier : dossiers patients, devis et appareillages',
      credentials: [{ contextType: 'general', contextName: null, loginPage: 'https://manage.auditdata.example/login' }],
    },
    {
      label: 'Cosium Facturation',
      type: 'billing',
      vendor: 'Cosium',
      version: '2024.3',
      apiUrl: null,
      documentationUrl: 'https://aide.cosium.example',
      description: 'Télétransmission et facturation des tiers payants',
      credentials: [{ contextType: 'general', contextName: null, loginPage: 'https://factu.cosium.example/connexion' }],
    },
    {
      label: 'Portail Santéclair',
      type: 'network',
      vendor: 'Santéclair',
      version: '2',
      apiUrl: null,
      documentationUrl: null,
      description: 'Espace partenaire pour les demandes de prise en charge',
      credentials: [{ contextType: 'network', contextName: 'Santéclair', loginPage: 'https://partenaires.santeclair.example/login' }],
    },
    {
      label: 'Portail Itelis',
      type: 'network',
      vendor: 'Itelis',
      version: '3',
      apiUrl: null,
      documentationUrl: null,
      description: 'Espace professionnel Itelis',
      credentials: [{ contextType: 'network', contextName: 'Itelis', loginPage: 'https://pro.itelis.example/connexion' }],
    },
  ],
  riviera: [
    {
      label: 'Optimum Opticien',
      type: 'medical',
      vendor: 'Opteam',
      version: '9.1',
      apiUrl: null,
      documentationUrl: 'https://support.opteam.example',
      description: 'Logiciel métier du magasin',
      credentials: [{ contextType: 'general', contextName: null, loginPage: 'https://optimum.opteam.example/login' }],
    },
    {
      label: 'Cosium Facturation',
      type: 'billing',
      vendor: 'Cosium',
      version: '2024.3',
      apiUrl: null,
      documentationUrl: 'https://aide.cosium.example',
      description: 'Télétransmission et facturation des tiers payants',
      credentials: [{ contextType: 'general', contextName: null, loginPage: 'https://factu.cosium.example/connexion' }],
    },
    {
      label: 'Portail Kalixia',
      type: 'network',
      vendor: 'Kalixia',
      version: '1',
      apiUrl: null,
      documentationUrl: null,
      description: 'Espace partenaire Kalixia',
      credentials: [{ contextType: 'network', contextName: 'Kalixia', loginPage: 'https://partenaires.kalixia.example/login' }],
    },
  ],
};

export interface DemoReference {
  networkIds: Record<string, number>;
  mutualIds: Record<string, number>;
}

export async function seedReferenceData(db: Db, secrets: SecretBox, organisations: DemoOrganisations): Promise<DemoReference> {
  const networkIds: Record<string, number> = {};
  const mutualIds: Record<string, number> = {};
  for (const network of NETWORKS) {
    const [row] = await db.insert(networks).values(network).returning({ id: networks.id });
    networkIds[network.code] = row!.id;
    const created = await db
      .insert(mutuals)
      .values(MUTUALS[network.code]!.map((name) => ({ name, code: code(name), networkId: row!.id })))
      .returning({ id: mutuals.id, name: mutuals.name });
    for (const m of created) mutualIds[m.name] = m.id;
  }

  for (const [organisation, list] of Object.entries(SOFTWARE)) {
    const holdingId = organisations.holdingIds[organisation]!;
    const centreIds = (await db.select({ id: shops.id }).from(shops).where(eq(shops.holdingId, holdingId))).map((s) => s.id);
    for (const { credentials, ...entry } of list) {
      const [created] = await db
        .insert(software)
        .values({ ...entry, holdingId })
        .returning({ id: software.id });
      for (const [index, credential] of credentials.entries()) {
        const [row] = await db
          .insert(credentialSoftware)
          .values({
            ...credential,
            holdingId,
            softwareId: created!.id,
            login: `robot.${organisation}${index ? index + 1 : ''}`,
            passwordEnc: secrets.encrypt(`Demo-${organisation}-${created!.id}-secret`),
            displayIdentifier: `${entry.label} — compte robot`,
            environment: 'production',
          })
          .returning({ id: credentialSoftware.id });
        // Every centre of the organisation uses this credential for this software.
        await db.insert(shopCredentials).values(centreIds.map((shopId) => ({ shopId, credentialId: row!.id })));
      }
    }
  }
  return { networkIds, mutualIds };
}
