// What a request sends to confirm what the server asked to be confirmed first (a 409 that names it): the statement's
// amounts to check, the twin of a file. Apart from the rules they belong to (./payments, ./duplicates): the browser's
// data provider, in the first file of every page, sends them, and importing them from those modules brought their
// rules and messages (≈25 KB of code) into it.

/** The statement apply's query parameter by which the office confirms the lines to be checked (`montantsVerifies=1`). */
export const AMOUNTS_CHECKED_PARAM = 'montantsVerifies';

/** The DPEC start's body flag that confirms a request despite its twins (audited). */
export const CONFIRM_DUPLICATE_FLAG = 'confirmDuplicate';
