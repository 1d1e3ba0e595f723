// Keeps web/sw.js's list of files (FILES) equal to the files of web/: the service worker keeps
// each in the browser so that the page opens and plays with no server. Run by scripts/check-web.sh;
// with --fix it writes the list.
//   node scripts/web-precache.mjs [--fix]
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const web = path.join(root, 'web');
const sw = path.join(web, 'sw.js');

function list(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...list(full));
    else out.push('/' + path.relative(web, full).split(path.sep).join('/'));
  }
  return out;
}

// The service worker itself is fetched by the browser, never from its own cache.
const files = list(web)
  .filter((f) => f !== '/sw.js')
  .sort();
const text = fs.readFileSync(sw, 'utf8');
const m = text.match(/( *)(\/\/ precache: begin[^\n]*\n)([\s\S]*?)\1\/\/ precache: end/);
if (!m) {
  console.error('web-precache: web/sw.js has no "// precache: begin" ... "// precache: end" block');
  process.exit(1);
}
const want = files.map((f) => `${m[1]}'${f}',\n`).join('');
if (m[3] === want) {
  console.log(`web-precache: web/sw.js lists the ${files.length} files of web/`);
  process.exit(0);
}
if (process.argv.includes('--fix')) {
  fs.writeFileSync(sw, text.replace(m[0], `${m[1]}${m[2]}${want}${m[1]}// precache: end`));
  console.log(`web-precache: wrote the ${files.length} files of web/ into web/sw.js`);
  process.exit(0);
}
console.error('web-precache: web/sw.js does not list the files of web/ (node scripts/web-precache.mjs --fix)');
process.exit(1);
