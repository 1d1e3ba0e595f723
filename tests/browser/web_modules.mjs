// Imports modules of the web client (web/*.js) into node for unit tests: web/ has no package.json
// saying "module", so web/ is copied into a directory of its own that has one.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');

/**
 * Imports web/`file` as a module: web/ is copied (its modules, with whatever they import) into a
 * directory of its own whose package.json says "module", once per process.
 */
let copy = null;
export async function importWeb(file) {
  if (!copy) {
    copy = mkdtempSync(path.join(tmpdir(), 'bc-web-'));
    const dir = copy;
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    cpSync(web, copy, { recursive: true, filter: (src) => !src.endsWith('.wasm') });
    writeFileSync(path.join(copy, 'package.json'), '{"type":"module"}\n');
  }
  return import(pathToFileURL(path.join(copy, file)).href);
}
