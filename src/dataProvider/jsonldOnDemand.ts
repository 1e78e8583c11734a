// jsonld for @api-platform's packages, loaded the first time one of them expands a document (vite.config.ts points
// their `import jsonld from 'jsonld'` here): @api-platform/admin's client expands an error's body (the violations of a
// 422), and api-doc-parser's own docs parser, which the application does not use (src/dataProvider/docsParser.ts),
// would expand the docs. A page's reads never do: the library (about 100 KB of code) is not downloaded with the page.
import type { JsonLdDocument, Options } from 'jsonld';

type JsonLd = typeof import('jsonld');

let library: Promise<JsonLd> | undefined;
const load = () => (library ??= import('jsonld/lib/jsonld.js').then((module) => module.default));

export default {
  expand: (input: JsonLdDocument, options?: Options.Expand) => load().then((jsonld) => jsonld.expand(input, options)),
};
