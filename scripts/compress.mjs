// Writes .br and .gz next to each built text asset, so the server sends them compressed with no work per request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt)$/;

export function compressAssets(dir) {
  let files = 0;
  const visit = (p) => {
    for (const entry of readdirSync(p)) {
      const file = path.join(p, entry);
      if (statSync(file).isDirectory()) visit(file);
      else if (COMPRESSIBLE.test(entry) && statSync(file).size > 1024) {
        const content = readFileSync(file);
        writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        files += 1;
      }
    }
  };
  visit(dir);
  return files;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  compressAssets(path.resolve(process.argv[2] ?? 'dist'));
}
