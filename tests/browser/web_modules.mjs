// Imports modules of the web client (web/*.js) into node for unit tests: web/ has no package.json
// saying "module", so the files asked for are copied into a directory of their own that has one.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');

/** Copies `files` (paths in web/, with everything they import) and imports the first. */
export async function importWeb(...files) {
  const dir = mkdtempSync(path.join(tmpdir(), 'bc-web-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}\n');
  for (const f of files) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    copyFileSync(path.join(web, f), path.join(dir, f));
  }
  return import(pathToFileURL(path.join(dir, files[0])).href);
}
