// The web client's imports: the page is in layers (issue 32), so no modules of web/ may import
// each other in a cycle (a strongly connected component of the static imports), and a module is
// one idea, at most 400 lines. And the client's state is changed only by the store's reducers
// (web/store/): no other module writes `app.…`. Fails naming the cycle, the module or the write.
//   node scripts/web-imports.mjs [--list]   (--list: print the modules in cycles)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'web');

function modules(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return modules(full);
    return name.endsWith('.js') ? [full] : [];
  });
}

// Static imports and re-exports of relative modules: what is evaluated before the module itself.
const IMPORT = /^\s*(?:import|export)\s+(?:[\s\S]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;

const files = modules(web).sort();
const name = (f) => path.relative(web, f);
const graph = new Map();
const lines = new Map();
for (const f of files) {
  const text = readFileSync(f, 'utf8');
  lines.set(name(f), text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
  const deps = new Set();
  for (const m of text.matchAll(IMPORT)) {
    const target = path.resolve(path.dirname(f), m[1]);
    if (target.startsWith(web) && target.endsWith('.js')) deps.add(name(target));
  }
  graph.set(name(f), [...deps].filter((d) => lines.has(d) || files.some((g) => name(g) === d)));
}

// Tarjan's strongly connected components.
let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const components = [];
function visit(v) {
  index.set(v, counter);
  low.set(v, counter);
  counter++;
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!index.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) {
      low.set(v, Math.min(low.get(v), index.get(w)));
    }
  }
  if (low.get(v) === index.get(v)) {
    const c = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      c.push(w);
    } while (w !== v);
    if (c.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(c.sort());
  }
}
for (const v of graph.keys()) if (!index.has(v)) visit(v);

const inCycles = new Set(components.flat());
if (process.argv.includes('--list')) {
  for (const m of [...inCycles].sort()) console.log(m);
  process.exit(0);
}

const total = [...lines.values()].reduce((a, b) => a + b, 0);
const long = [...lines].filter(([, n]) => n > 400).sort((a, b) => b[1] - a[1]);
console.log(`web-imports: ${files.length} modules, ${total} lines; ${components.length} import cycle(s) holding ${inCycles.size} modules`);
for (const c of components) console.log(`  cycle of ${c.length}: ${c.join(' ')}`);
if (long.length) console.log(`  over 400 lines: ${long.map(([m, n]) => `${m} (${n})`).join(', ')}`);

// Writes to the client's state outside web/store/: an assignment to `app.x` or `ed.x` (or deeper),
// or a collection of it changed in place. app is read-only at run time too (store.js), but a write in
// code seldom run would only throw in front of a user.
// `ed` is the analysis board's name for its slice (editor_state.js).
const PATH = String.raw`\b(?:app|ed)\.[\w$]+(?:\.[\w$]+|\[[^\]]*\])*`;
const WRITE = new RegExp(
  String.raw`${PATH}\s*(?:=(?!=)|\+\+|--|[-+*/%&|^]=)|${PATH}\.(?:set|delete|clear|add|push|pop|shift|unshift|splice|sort|reverse)\(|Object\.assign\(\s*(?:app|ed)\b`,
);
const writes = [];
for (const f of files) {
  if (name(f).startsWith(`store${path.sep}`)) continue;
  readFileSync(f, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (!line.trim().startsWith('//') && line.match(WRITE)) writes.push(`${name(f)}:${i + 1}: ${line.trim()}`);
    });
}
console.log(`  writes to the client's state outside web/store/: ${writes.length}`);
for (const w of writes) console.log(`    ${w}`);

let ok = true;
if (writes.length) {
  ok = false;
  console.error("web-imports: the client's state is changed by dispatch of an action (web/store/), not by writing app");
}
if (components.length) {
  ok = false;
  console.error('web-imports: modules import each other in a cycle (break it: a module imports only layers below it)');
}
if (long.length) {
  ok = false;
  console.error('web-imports: modules over 400 lines (split them along a seam: a module is one idea)');
}
process.exit(ok ? 0 : 1);
