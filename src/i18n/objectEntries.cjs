// Object.entries for node-polyglot (react-admin's translations), in place of the `object.entries` polyfill it requires
// (vite.config.ts): every browser Pecflow serves has it, and the polyfill brought ~17 KB of the entry's code
// (get-intrinsic and its helpers), evaluated on every page before the first paint.
module.exports = Object.entries;
