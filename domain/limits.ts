// Business constants and limits of spec section 9, defined once.
export const HTTP_TIMEOUT_MS = 600_000;
export const DPEC_TIMEOUT_MS = 120_000;
export const BILLING_TIMEOUT_MS = 60_000;
export const TOAST_DURATION_MS = 5_000;
export const HIGHLIGHT_DURATION_MS = 4_000;
export const DRAWER_CLEAR_DELAY_MS = 500;
export const REFETCH_AFTER_ACTION_MS = 200;
export const SEARCH_DEBOUNCE_MS = 500;
export const PAGE_SIZE = 20;
/** The largest itemsPerPage a client may ask for, unless the system setting says otherwise. */
export const MAX_PAGE_SIZE = 100;
/** With pagination=false (reference lists such as mutuals), a hard ceiling still applies. */
export const UNPAGINATED_MAX = 5000;
export const SKELETON_ROWS = 5;
export const NOTIFICATION_DROPDOWN_SIZE = 5;
export const TEXTAREA_ROWS = 4;
export const PEC_LIST_REFETCH_MS = 30_000;
export const ROBOT_RUN_TIMEOUT_MS = 600_000;
export const EXPIRY_WARNING_DAYS = 15;
/** The dashboard's robot failures: files whose run failed within this many days. */
export const ROBOT_FAILURE_WINDOW_DAYS = 7;
/** Robot results entered by hand on one file: at most `max` within `windowMinutes` (each one notifies the file's team). */
const MANUAL_RESULTS_MAX = 20;
export const MANUAL_RESULTS_LIMIT = {
  max: MANUAL_RESULTS_MAX,
  windowMinutes: 60,
  message: (minutes: number) =>
    `Trop de résultats saisis à la main pour ce dossier (${MANUAL_RESULTS_MAX} par heure au plus) : réessayez dans ${minutes} minute${minutes > 1 ? 's' : ''}.`,
};
/** The most files one bulk action on the PEC list may name (POST /api/pec_dossiers/bulk/{action}). */
export const BULK_MAX_FILES = 100;
/** Robot runs at once per organisation when the system setting is absent; bulk runs beyond it wait their turn. */
export const ROBOT_CONCURRENCY_DEFAULT = 3;
/** How long a signed link to a document in a robot job stays valid (GET /api/robot/documents/{id}), in seconds. */
export const ROBOT_DOCUMENT_LINK_TTL_SECONDS = 300;
/**
 * The PEC list's search (server/pec/numbering.ts, searchWords): a word shorter than `minLength` (a trigram) is not looked
 * up in the index, only checked on the files the other words found; `maxWords` words at most, each one more condition
 * (beyond, a 422 rather than words dropped unseen, which would list files without them).
 */
const SEARCH_MAX_WORDS = 8;
export const SEARCH_WORDS = {
  minLength: 3,
  maxWords: SEARCH_MAX_WORDS,
  tooMany: `La recherche compte trop de mots : ${SEARCH_MAX_WORDS} au plus.`,
};
