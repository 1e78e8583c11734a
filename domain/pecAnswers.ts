// The answers of the PEC calls that are not Hydra resources: the server sends these shapes (server/robot/runs.ts,
// server/robot/routes.ts, server/pec/routes.ts, server/pec/duplicates.ts) and the browser reads them
// (src/dataProvider/pec.ts). One shape, typed on both sides.

/** POST /api/pec_dossiers/{id}/run: the run that started (spec section 7). */
export interface RunStarted {
  externalId: string;
  executionId: number;
  runId: number;
  status: string;
  message: string;
}

/** A robot callback's answer. */
export interface CallbackSaved {
  executionId: number;
  /** Seconds. */
  processing_time: number;
}

/** A line of an import that matched a file already there (or a line above it): not created, reported. */
export interface SkippedImportLine {
  line: number;
  message: string;
  numeroDossier: string | null;
  '@id': string | null;
}

/** POST /api/pec_dossiers/import: what was created, and the lines skipped as already there. */
export interface ImportResult {
  created: number;
  ids: number[];
  /** The created files' IRIs. */
  member?: string[];
  skipped?: SkippedImportLine[];
}

/** A refused import line and its messages. */
export interface ImportLineErrors {
  line: number;
  messages: string[];
}

/** The body of a 422 refused import: the lines and their messages. */
export interface ImportErrors {
  errors?: ImportLineErrors[];
}

/** A twin named in a refusal: one the reader may see (domain/duplicates.ts). */
export interface NamedTwin {
  '@id': string;
  id: number;
  numeroDossier: string;
  status: string;
}

/** The 409 of a DPEC beside a twin's request: the twins, to confirm against (domain/duplicates.ts). */
export interface DuplicateRefusal {
  twins?: NamedTwin[];
}
