// The puzzles' list, /puzzles (GET /api/puzzles; docs/PUZZLES.md): the collection by kind, then
// variant, then difficulty, with choices that narrow it. With no server the collection comes from
// the page's own copy (web/data/puzzles.json, kept by the service worker).

import { t } from './i18n.js';
import { $, h, sideChip, variantName } from './ui.js';
import { app, dispatch, puzzle as pz } from './store/store.js';
import { apiFetch } from './net.js';
import { showScreen } from './screen.js';
import { stopTimers } from './puzzle_play.js';
import { difficultyWords, goalWords, kindBlurb, kindName, optionsWords } from './puzzle_words.js';

let loading = null;

/** The collection's summaries, fetched once a page load (the collection does not change while the
 *  server runs); null when neither the server nor the page's copy has them. */
export function puzzleList() {
  if (pz.list) return Promise.resolve(pz.list);
  loading ??= fetchList().then((list) => {
    loading = null;
    if (list) dispatch({ type: 'puzzle/list', list });
    return list;
  });
  return loading;
}

async function fetchList() {
  try {
    const res = await apiFetch('/api/puzzles');
    if (res.ok) {
      const data = await res.json();
      return Array.isArray(data.puzzles) ? data.puzzles : [];
    }
    if (res.status !== 404) return null;
  } catch {
    // no server: the page's copy below
  }
  const file = await ownCopy();
  // A summary is a puzzle without its position and line (docs/PUZZLES.md, HTTP).
  return file ? file.puzzles.map((p) => ({ ...p, position: undefined, line: undefined })) : null;
}

/** The collection as the page keeps it (web/data/puzzles.json), or null. */
export async function ownCopy() {
  try {
    const res = await fetch('/data/puzzles.json');
    const data = res.ok ? await res.json() : null;
    return Array.isArray(data?.puzzles) ? data : null;
  } catch {
    return null;
  }
}

/** The puzzle after `p` in the list: the next of its kind and difficulty, else of its kind. */
export function nextPuzzle(list, p) {
  const others = (list ?? []).filter((q) => q.id !== p.id);
  const after = (pick) => {
    const all = (list ?? []).filter((q) => q.id === p.id || pick(q));
    const i = all.findIndex((q) => q.id === p.id);
    return all.length > 1 ? all[(i + 1) % all.length] : null;
  };
  return (
    after((q) => q.kind === p.kind && q.difficulty === p.difficulty) ??
    after((q) => q.kind === p.kind) ??
    others[0] ??
    null
  );
}

// ---- the page ---------------------------------------------------------------------------------

const filters = { kind: '', variant: '', difficulty: '' };
let seq = 0;

export async function openPuzzles() {
  const mine = ++seq;
  stopTimers(); // a puzzle's reply or solution under way stops with its page
  showScreen('puzzles');
  document.title = `${t('html.puzzles')} · Bomb Checkers`;
  say(t('html.loading'));
  const list = await puzzleList();
  if (mine !== seq) return;
  if (!list) {
    $('#puzzle-list').replaceChildren();
    $('#puzzle-filters').hidden = true;
    say(t('pz.list_unreachable'));
    return;
  }
  renderFilters(list);
  renderList(list);
}

function say(text) {
  const el = $('#puzzles-message');
  el.textContent = text;
  el.hidden = !text;
}

function renderFilters(list) {
  const box = $('#puzzle-filters');
  box.hidden = !list.length;
  const choice = (name, label, values, words) => {
    const select = h(
      'select',
      { name, 'aria-label': label },
      h('option', { value: '' }, t(`pz.every_${name}`)),
      ...values.map((v) => h('option', { value: String(v) }, words(v))),
    );
    select.value = values.map(String).includes(filters[name]) ? filters[name] : '';
    filters[name] = select.value;
    return h('label.field', {}, h('span', {}, label), select);
  };
  const uniq = (key) => [...new Set(list.map((p) => p[key]))].sort();
  box.replaceChildren(
    choice('kind', t('pz.kind'), uniq('kind'), kindName),
    choice('variant', t('html.game'), uniq('variant'), (v) => variantName(v, app.variants)),
    choice('difficulty', t('pz.difficulty'), [1, 2, 3, 4, 5], (d) => `${d} ${difficultyWords(d).dots}`),
  );
}

$('#puzzle-filters').addEventListener('change', (e) => {
  filters[e.target.name] = e.target.value;
  if (pz.list) renderList(pz.list);
});

function renderList(list) {
  const shown = list.filter(
    (p) =>
      (!filters.kind || p.kind === filters.kind) &&
      (!filters.variant || p.variant === filters.variant) &&
      (!filters.difficulty || String(p.difficulty) === filters.difficulty),
  );
  say(!list.length ? t('pz.none_yet') : shown.length ? '' : t('pz.none_such'));
  const kinds = [...new Set(shown.map((p) => p.kind))].sort();
  $('#puzzle-list').replaceChildren(
    ...kinds.map((k) =>
      kindSection(
        k,
        shown.filter((p) => p.kind === k),
      ),
    ),
  );
}

const groupBy = (items, key) => {
  const m = new Map();
  for (const x of items) m.set(x[key], [...(m.get(x[key]) ?? []), x]);
  return [...m].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
};

function kindSection(kind, items) {
  return h(
    'section.pz-kind',
    { dataset: { kind }, 'aria-label': kindName(kind) },
    h('h2', {}, kindName(kind), h('span.muted.pz-count', {}, ` ${items.length}`)),
    kindBlurb(kind) ? h('p.muted', {}, kindBlurb(kind)) : null,
    h(
      'div.pz-variants',
      {},
      ...groupBy(items, 'variant').map(([variant, ps]) =>
        h(
          'section.card.pz-variant',
          { dataset: { variant } },
          h('h3', {}, variantName(variant, app.variants)),
          ...groupBy(ps, 'difficulty').map(([d, qs]) => {
            const { dots, label } = difficultyWords(d);
            return h(
              'div.pz-level',
              { dataset: { difficulty: d } },
              h(
                'h4.pz-level-head',
                {},
                h('span.pz-dots', { 'aria-hidden': 'true' }, dots),
                ` ${label[0].toUpperCase()}${label.slice(1)}`,
              ),
              h('ul.pz-items', {}, ...qs.map((q) => h('li', {}, puzzleLink(q)))),
            );
          }),
        ),
      ),
    ),
  );
}

function puzzleLink(p) {
  return h(
    'a.pz-item',
    { href: `/puzzles/${encodeURIComponent(p.id)}`, dataset: { route: '', puzzle: p.id } },
    sideChip(p.turn),
    h('span.pz-goal', {}, goalWords(p)),
    h('span.pz-options.muted', {}, optionsWords(p.variant, p.options)),
  );
}
