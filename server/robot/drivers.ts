// The two robot drivers. The mode and the external robot's URL are system settings (integrations.robot_mode,
// integrations.robot_url), read when each run is dispatched; ROBOT_MODE and ROBOT_URL only give their first value.
// - simulator: in-process; after ROBOT_SIM_DELAY_MS it posts each callback to this server over HTTP, signed like an
//   external robot's, one durable job per callback (a restart resumes where the run was).
// - http: POSTs the job (file, centre, mutual, network and the centre's decrypted credentials) to the robot URL,
//   signed in X-Pecflow-Signature; the robot then posts its callbacks. A refusal fails the run with
//   "Robot API returned {status}: {"errors":[...]}" holding only the protocol's error texts (never the reply itself),
//   shortened for people by shapeRobotError.
import type { RunKind } from '#domain/pec';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { mutuals, networks, pecDossiers, prescribers, shops } from '../db/schema';
import { centreCredentials, secretsOf, withoutSecrets } from './credentials';
import { SETTING_KEYS } from '../settings';
import { QUEUES, type JobService } from '../jobs/boss';
import { ROBOT_API_MARKER, type CallbackType } from '#domain/pec';
import { robotUrlError } from '#domain/settings';
import { PECFLOW_SIGNATURE_HEADER, ROBOT_SIGNATURE_HEADER, sign } from '../http/signature';
import { simulatorCallback, simulatorOutcome } from './simulator';
import { simulatorAgreement } from './agreementPdf';
import { documentLinks } from './documents';
import { fileKindOfShop } from '../pec/fileKind';
import type { RobotRuns } from './runs';
import type { Execution } from './steps';

const HTTP_TIMEOUT_MS = 30_000;

/** The most of an error reply that is read (the rest is not needed to find its error texts). */
const MAX_ERROR_REPLY_BYTES = 64 * 1024;
/** Error texts kept from a refusal, and the length of each. */
const MAX_KEPT_ERRORS = 5;
const MAX_ERROR_LENGTH = 300;

/** The start of a reply's body, at most `max` bytes, as text. */
async function readCapped(response: Response, max: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // a reply cut short: what was read is enough
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}

/**
 * The error texts of a refusal as the protocol defines them: `errors[].message` of a JSON answer, capped in number and
 * length; any text that contains a secret of the job is dropped. Anything else in the reply is not kept.
 */
export function keptRobotErrors(text: string, secrets: readonly string[]): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const list = (parsed as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(list)) return [];
  return list
    .map((e) => (e && typeof e === 'object' ? (e as { message?: unknown }).message : undefined))
    .filter((m): m is string => typeof m === 'string')
    .map((m) => m.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .filter((m) => withoutSecrets([m], secrets).length > 0)
    .map((m) => m.slice(0, MAX_ERROR_LENGTH))
    .slice(0, MAX_KEPT_ERRORS);
}

export class RobotDrivers {
  constructor(
    private readonly app: AppContext,
    private readonly runs: RobotRuns,
    private readonly jobs: JobService,
    /** Base URL the callbacks go to: PUBLIC_URL, or this server on loopback. */
    private readonly callbackBase: () => string,
  ) {}

  async mode(): Promise<'simulator' | 'http'> {
    const mode = await this.app.settings.string(SETTING_KEYS.robotMode, this.app.config.robotMode ?? 'simulator');
    return mode === 'http' ? 'http' : 'simulator';
  }

  async robotUrl(): Promise<string> {
    return (await this.app.settings.string(SETTING_KEYS.robotUrl, '')) || this.app.config.robotUrl || '';
  }

  callbackUrl(type: CallbackType) {
    return `${this.callbackBase().replace(/\/$/, '')}/api/callbacks/${type}`;
  }

  /** Where the robot posts back the insurer's documents (robot/documents.ts). */
  documentsCallbackUrl() {
    return `${this.callbackBase().replace(/\/$/, '')}/api/callbacks/documents`;
  }

  /** The robot-run job: hands the run to the driver of the moment. */
  async dispatch(runId: number): Promise<void> {
    const step = await this.runs.openStep(runId);
    if (!step) return;
    if ((await this.mode()) === 'http') {
      try {
        await this.postJob(step);
      } catch (error) {
        await this.runs.closeRun(runId, [error instanceof Error ? error.message : String(error)], 'error');
      }
      return;
    }
    await this.jobs.send(QUEUES.robotSim, { runId }, { startAfter: new Date(Date.now() + this.app.config.robotSimDelayMs) });
  }

  /**
   * Open runs that lost their job (the server stopped between recording a run and queueing it, or between two
   * simulator steps; demo files seeded "en cours"): queued again. A run handed to an external robot is left to it
   * (its timeout still applies). Returns the number of runs queued again.
   */
  async recoverOrphans(): Promise<number> {
    const rows = await this.app.database.query<{ run_id: number; dispatched: boolean; simulated: boolean }>(
      `select e.run_id,
          exists(select 1 from pgboss.job j where j.name = $1 and (j.data->>'runId')::int = e.run_id)
            or exists(select 1 from pgboss.archive a where a.name = $1 and (a.data->>'runId')::int = e.run_id) as dispatched,
          exists(select 1 from pgboss.job j where j.name = $2 and (j.data->>'runId')::int = e.run_id)
            or exists(select 1 from pgboss.archive a where a.name = $2 and (a.data->>'runId')::int = e.run_id) as simulated
        from workflow_executions e
        where e.completed_at is null and e.run_id is not null
          and not exists (select 1 from pgboss.job j where j.name in ($1, $2) and j.state < 'completed' and (j.data->>'runId')::int = e.run_id)`,
      [QUEUES.robotRun, QUEUES.robotSim],
    );
    let queued = 0;
    for (const row of rows) {
      if (!row.dispatched) await this.jobs.send(QUEUES.robotRun, { runId: row.run_id });
      else if (row.simulated) await this.jobs.send(QUEUES.robotSim, { runId: row.run_id });
      else continue;
      queued++;
    }
    return queued;
  }

  // ---------- simulator ----------

  /** The robot-sim job: posts the open step's callback, then queues the next step's after the delay. */
  async simulate(runId: number): Promise<void> {
    const step = await this.runs.openStep(runId);
    if (!step) return;
    const type = step.callbackType as CallbackType;
    const found = await this.runs.dossierWithNetwork(step.dossierId);
    const start = await this.runs.runStart(runId);
    const externalId = found?.dossier.externalId;
    if (!found || !externalId || !start) return;
    const { dossier } = found;
    // "-SILENCE": the robot retrieves the data, then never gives its final answer; the timeout ends the run.
    if (simulatorOutcome(dossier.numeroDossierAssure) === 'silent' && type !== 'scraping') return;

    const kind = await fileKindOfShop(this.app.db, dossier.shopId);
    // The request goes to the portal with the file's documents, fetched through the job's links as a robot would.
    const documentKinds = type === 'dpec' ? await this.fetchDocuments(dossier.id) : [];
    const file = {
      externalId,
      numeroDossierAssure: dossier.numeroDossierAssure,
      networkCode: found.networkCode,
      kind,
      missingPrescription: type === 'dpec' && kind === 'optical' && !documentKinds.includes('prescription'),
    };
    const result = simulatorCallback(type, file, runId, start.startedAt);
    // An approval comes with the insurer's agreement, posted before the result (a retried job posts it again: one document).
    // A refusal of the document (422: the file holds its most documents) leaves the approval to be posted; anything else is retried.
    if (type === 'dpec' && result.num_pec) {
      const agreement = await this.postSigned(this.documentsCallbackUrl(), await simulatorAgreement(found, result, start.startedAt));
      if (!agreement.ok && agreement.status >= 500) throw new Error(`accord du simulateur refusé (HTTP ${agreement.status})`);
    }
    const response = await this.postSigned(this.callbackUrl(type), result);
    // A refusal of the data itself (404, 422) or of a run that is no longer the open one (409) will not change on a
    // retry; anything else is retried by pg-boss.
    if (!response.ok && ![404, 409, 422].includes(response.status)) throw new Error(`rappel du simulateur refusé (HTTP ${response.status})`);

    const next = await this.runs.openStep(runId);
    if (next && next.id !== step.id) {
      await this.jobs.send(QUEUES.robotSim, { runId }, { startAfter: new Date(Date.now() + this.app.config.robotSimDelayMs) });
    }
  }

  /** A body posted to this server signed as the robot signs it; the answer read to its end. */
  private async postSigned(url: string, payload: unknown): Promise<Response> {
    const body = JSON.stringify(payload);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [ROBOT_SIGNATURE_HEADER]: sign(body, this.app.config.robotCallbackSecret) },
      body,
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    await response.arrayBuffer().catch(() => undefined);
    return response;
  }

  /**
   * The file's documents as the robot's job lists them, each fetched through its signed link and its bytes counted:
   * their kinds. A link that does not give the document fails the job (pg-boss retries it; the run's timeout ends it).
   */
  private async fetchDocuments(dossierId: number): Promise<string[]> {
    const links = await documentLinks(this.app, dossierId, this.callbackBase());
    for (const link of links) {
      const response = await fetch(link.url, { signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
      const body = await response.arrayBuffer().catch(() => undefined);
      const bytes = response.ok && body ? body.byteLength : -1;
      // The link is never in the message: its signature opens the document for a few minutes.
      if (bytes !== link.size)
        throw new Error(`document « ${link.kind} » illisible par le simulateur (HTTP ${response.status}, ${bytes} octets sur ${link.size})`);
    }
    return links.map((link) => link.kind);
  }

  // ---------- external robot ----------

  private async postJob(step: Execution): Promise<void> {
    const url = await this.robotUrl();
    if (!url) throw new Error('Aucune adresse de robot configurée (Paramètres > Système : integrations.robot_url).');
    // The same rule as when the setting is saved: ROBOT_URL, or a value saved before the rule, is checked here too.
    const urlProblem = robotUrlError(url);
    if (urlProblem) throw new Error(`${urlProblem} (Paramètres > Système : integrations.robot_url).`);
    const { payload, secrets } = await this.job(step);
    const body = JSON.stringify(payload);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [PECFLOW_SIGNATURE_HEADER]: sign(body, this.app.config.robotCallbackSecret) },
        body,
        // A redirect would re-send the credentials to an address nobody configured.
        redirect: 'error',
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      throw new Error(`Robot injoignable (${cause}) : vérifiez l’adresse du robot dans les paramètres système.`, { cause: error });
    }
    if (response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return;
    }
    // Only the protocol's error texts are kept, never the reply itself: it may echo the credentials just sent.
    const errors = keptRobotErrors(await readCapped(response, MAX_ERROR_REPLY_BYTES), secrets);
    throw new Error(
      `${ROBOT_API_MARKER} ${response.status}: ${errors.length ? JSON.stringify({ errors: errors.map((message) => ({ message })) }) : 'le robot a refusé la demande sans message exploitable.'}`,
    );
  }

  /** Everything the robot needs for the run, decrypted credentials included. Only ever sent to the robot. */
  async jobPayload(step: Execution) {
    return (await this.job(step)).payload;
  }

  /** The job and the secrets it holds. */
  private async job(step: Execution) {
    const kind = (step.runKind ?? 'dpec') as RunKind;
    const [row] = await this.app.db
      .select({ dossier: pecDossiers, shop: shops, mutual: mutuals, network: networks, prescriber: prescribers })
      .from(pecDossiers)
      .innerJoin(shops, eq(shops.id, pecDossiers.shopId))
      .leftJoin(mutuals, eq(mutuals.id, pecDossiers.mutualId))
      .leftJoin(networks, eq(networks.id, pecDossiers.networkId))
      .leftJoin(prescribers, eq(prescribers.id, pecDossiers.prescriberId))
      .where(eq(pecDossiers.id, step.dossierId));
    if (!row) throw new Error('Dossier introuvable');
    const { dossier, shop, mutual, network, prescriber } = row;
    const credentials = await centreCredentials(this.app, shop.id);
    const payload = {
      action: kind === 'dpec' ? 'setup_and_create_dpec' : 'setup_and_billing_pec',
      run_id: step.runId,
      id_pecflow: dossier.externalId,
      callback_urls: {
        ...Object.fromEntries((kind === 'dpec' ? (['scraping', 'dpec'] as const) : (['billing'] as const)).map((t) => [t, this.callbackUrl(t)])),
        documents: this.documentsCallbackUrl(),
      },
      callback_signature: { header: 'X-Robot-Signature', algorithm: 'HMAC-SHA256 (hex) du corps brut avec ROBOT_CALLBACK_SECRET' },
      dossier: {
        id: dossier.id,
        numero_dossier: dossier.numeroDossier,
        numero_dossier_assure: dossier.numeroDossierAssure,
        numero_devis_assure: dossier.numeroDevisAssure,
        num_dossier_dpec: dossier.numDossierDpec,
        num_pec: dossier.numPec,
        num_billing: dossier.numBilling,
        date_billing: dossier.dateBilling,
        total_ttc: dossier.totalTtc,
        date_prescription: dossier.datePrescription,
        date_naissance_beneficiaire: dossier.dateNaissanceBeneficiaire,
      },
      // The insured as the portal asks for them (issue 29); health data: sent to the robot only, never logged.
      assure: { nom: dossier.nomAssure, prenom: dossier.prenomAssure, numero_adherent: dossier.numeroAdherent },
      prescripteur: prescriber
        ? {
            civilite: prescriber.civility,
            nom: prescriber.lastName,
            prenom: prescriber.firstName,
            rpps: prescriber.rpps,
            specialite: prescriber.specialty,
          }
        : null,
      centre: {
        id: shop.id,
        nom: shop.name,
        nom_affiche: shop.displayName,
        siret: shop.siret,
        finess: shop.finess,
        rpps: shop.rpps,
        code_client: shop.codeClient,
        /** Audioprothésiste, Opticien or Orthopédiste: what the scraping callback must carry (README, "Callback formats"). */
        specialite: shop.specialite,
      },
      mutuelle: mutual ? { id: mutual.id, nom: mutual.name, code: mutual.code } : null,
      reseau: network ? { id: network.id, nom: network.name, code: network.code } : null,
      // The file's documents (prescription, standard quote…): each a link valid a few minutes, for this document only.
      documents: await documentLinks(this.app, dossier.id, this.callbackBase()),
      identifiants: credentials.map(({ credential, software: s, password, apiKey, apiSecret }) => ({
        logiciel: { id: s.id, libelle: s.label, type: s.type },
        login: credential.login,
        password,
        login_page: credential.loginPage,
        api_key: apiKey,
        api_secret: apiSecret,
        context_type: credential.contextType,
        context_name: credential.contextName,
        environment: credential.environment,
      })),
    };
    return { payload, secrets: secretsOf(credentials) };
  }
}
