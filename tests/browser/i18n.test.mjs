// The page's message catalogues (web/i18n/*.js, no browser, no server): every key of English is in
// every language and no other key is, with the same {placeholders}; index.html's words are all
// marked for the catalogue; no module of web/ holds an English sentence of its own; the language
// is picked from the stored choice, then the browser's; typed moves and turns in words.
//   node --test tests/browser/i18n.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importWeb } from './web_modules.mjs';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
const i18n = await importWeb('i18n.js');
const en = i18n.LANGUAGES.en.strings;
const holes = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('every catalogue has exactly the English keys, with the same placeholders, none empty', () => {
  assert.ok(Object.keys(i18n.LANGUAGES).length >= 3, 'English and at least two more');
  for (const [code, { strings }] of Object.entries(i18n.LANGUAGES)) {
    assert.deepEqual(
      Object.keys(strings).filter((k) => !(k in en)),
      [],
      `${code}: keys English does not have`,
    );
    assert.deepEqual(
      Object.keys(en).filter((k) => !(k in strings)),
      [],
      `${code}: English keys missing`,
    );
    for (const [k, v] of Object.entries(strings)) {
      assert.equal(typeof v, 'string', `${code} ${k}`);
      assert.ok(v.trim(), `${code} ${k} is empty`);
      assert.deepEqual(holes(v), holes(en[k]), `${code} ${k}: placeholders`);
    }
  }
});

test('index.html: every word on the page and in its labels is marked for the catalogue', () => {
  const html = readFileSync(path.join(web, 'index.html'), 'utf8');
  const body = html.slice(html.indexOf('<header'));
  const keys = [...body.matchAll(/data-i18n(?:-[a-z-]+)?="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(
    keys.filter((k) => !(k in en)),
    [],
    'keys index.html uses that en.js lacks',
  );
  // Text between tags: the element holding it must carry data-i18n (the brand's name and the
  // keys shown as <kbd> are not words to translate).
  const unmarked = [];
  for (const m of body.matchAll(/<([a-z][a-z0-9]*)\b([^<>]*)>([^<>]*[A-Za-z]{2}[^<>]*)</g)) {
    const [, tag, attrs, text] = m;
    if (attrs.includes('data-i18n=') || tag === 'svg' || /^\s*(Bomb|Checkers)\s*$/.test(text)) continue;
    unmarked.push(text.trim());
  }
  for (const m of body.matchAll(/<\/[a-z0-9]+>([^<>]*[A-Za-z]{2}[^<>]*)</g)) unmarked.push(m[1].trim());
  assert.deepEqual(unmarked, [], 'words of index.html with no data-i18n');
  const bare = [];
  for (const m of body.matchAll(/<[a-z][^<>]*>/g)) {
    for (const attr of ['aria-label', 'title', 'placeholder']) {
      const v = new RegExp(`\\s${attr}="([^"]*[A-Za-z]{2}[^"]*)"`).exec(m[0]);
      if (v && !m[0].includes(`data-i18n-${attr}=`)) bare.push(`${attr}="${v[1]}"`);
    }
  }
  assert.deepEqual(bare, [], 'labels of index.html with no data-i18n-*');
});

// Every module of web/ speaks through the catalogue. The allowed English: the plain-text exports'
// notes (notation.js), which are part of a file format, as PDN is.
const ALLOWED = new Set([
  'Drops name their column from 1 at the left; squares are a1 at the bottom left.',
  'Squares are a1 at the bottom left to h8 at the top right.',
]);

test('no module of web/ holds an English sentence of its own', () => {
  const files = readdirSync(web, { recursive: true }).filter(
    (f) => /\.m?js$/.test(f) && !f.startsWith(`i18n${path.sep}`) && !f.startsWith(`engine${path.sep}`),
  );
  assert.ok(files.length > 50, 'the modules of web/');
  const found = [];
  for (const file of files) {
    const src = readFileSync(path.join(web, file), 'utf8')
      .replace(/^\s*\/\/.*$/gm, '')
      .replace(/\/\*[\s\S]*?\*\//g, '');
    // A quoted text of two or more words, the first capitalised: a sentence for a person.
    for (const m of src.matchAll(/(['`])([A-Z][a-z]+ [a-z][^'`]*)\1/g)) {
      if (!ALLOWED.has(m[2])) found.push(`${file}: ${m[2]}`);
    }
  }
  assert.deepEqual(found, [], 'English words outside the catalogue');
});

test('the language: the stored choice, else the browser’s first we have, else English', () => {
  assert.equal(i18n.pickLanguage('de', ['es-ES']), 'de');
  assert.equal(i18n.pickLanguage(null, ['fr-FR', 'es-MX', 'de']), 'es');
  assert.equal(i18n.pickLanguage('xx', ['de-AT']), 'de');
  assert.equal(i18n.pickLanguage(null, ['fr']), 'en');
  assert.equal(i18n.t('ann.explodes', { count: 1 }), 'the bomb explodes, 1 piece removed');
  assert.equal(i18n.t('ann.explodes', { count: 3 }), 'the bomb explodes, 3 pieces removed');
  assert.equal(i18n.t('ann.step', { side: 'Water', from: 'e3', to: 'd4' }), 'Water: e3 to d4');
  assert.equal(i18n.t('no.such.key'), 'no.such.key');
});

test('typed moves: PDN numbers, a1-h8, Kaboom drops and detonations, completion', async () => {
  const tw = await importWeb('turn_words.js');
  const legal = [
    { kind: 'step', from: [2, 2], to: [3, 3] },
    { kind: 'step', from: [2, 2], to: [1, 3] },
    { kind: 'step', from: [4, 2], to: [5, 3] },
  ];
  assert.equal(tw.pdnNumber([2, 2]), 11);
  assert.equal(tw.pdnNumber([3, 3]), 15);
  assert.equal(tw.pdnNumber([0, 0]), 4);
  assert.equal(tw.pdnNumber([7, 7]), 29);
  assert.equal(tw.pdnName(legal[0]), '11-15');
  assert.equal(tw.pdnName({ kind: 'jump', from: [2, 2], to: [4, 4] }), '11x18');
  assert.equal(tw.pdnName(legal[0], { width: 10, height: 10 }), null);
  assert.deepEqual(tw.matchTyped('11-15', legal).action, legal[0]);
  assert.deepEqual(tw.matchTyped('C3 – D4', legal).action, legal[0]);
  assert.deepEqual(tw.matchTyped('e3', legal).action, legal[2], 'a prefix of one move only');
  assert.equal(tw.matchTyped('c3', legal).candidates.length, 2);
  assert.equal(tw.matchTyped('h8-g7', legal).candidates.length, 0);
  const jumps = [{ kind: 'jump', from: [2, 2], to: [4, 4] }];
  assert.deepEqual(tw.matchTyped('c3xe5xc7', jumps), { action: jumps[0], rest: ['e5', 'c7'] });
  assert.deepEqual(tw.matchTyped('11x18', jumps).action, jumps[0]);
  const kaboom = [
    { kind: 'drop', column: 3, piece: 'normal' },
    { kind: 'drop', column: 3, piece: 'bomb' },
    { kind: 'detonate', at: [2, 0] },
  ];
  const dims = { width: 7, height: 6 };
  assert.deepEqual(tw.matchTyped('4', kaboom, dims).action, kaboom[0]);
  assert.deepEqual(tw.matchTyped('4 bomb', kaboom, dims).action, kaboom[1]);
  assert.deepEqual(tw.matchTyped('detonate c1', kaboom, dims).action, kaboom[2]);
  const words = tw.turnWords({
    side: 'water',
    actions: [{ kind: 'jump', from: [4, 2], to: [2, 4] }],
    captured: [[3, 3]],
    exploded: [
      [1, 5],
      [2, 5],
      [3, 5],
    ],
  });
  assert.equal(words, 'Water: e3 to c5, takes d4; the bomb explodes, 3 pieces removed');
});
