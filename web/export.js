// Taking a game away: the record, PDN for checkers, the Kaboom text record, and the move list
// (and Kaboom's Gamesman positions) in the notation picked on the page.

import { t } from './i18n.js';
import { $, h, resultShort, toast, variantName } from './ui.js';
import { download, fetchPositions, fetchRecord, movesFromRecord, pdnUrl, recordUrl } from './replay.js';
import { app } from './store/store.js';
import { apiFetch } from './net.js';
import { sidesOf } from './context.js';
import { gamesmanSequence, moveListText, notationChoices } from './notation.js';
import { currentNotation } from './notation_view.js';
import { isConnect } from './variants.js';

/** The game the Export menu is about: the one picked in it, else the one replayed, else this one. */
let exportPick = null;
function exportGame() {
  const g = exportPick ?? app.replay?.game ?? app.gameNo;
  return g >= 1 && g <= app.gameNo ? g : app.gameNo;
}

async function renderExportMenu() {
  const s = app.state;
  const list = $('#export-list');
  if (!s || !app.room) return;
  const room = app.room;
  const game = exportGame();
  // `?game=N` only for an earlier game; the record of the current game needs no query.
  const q = game !== app.gameNo ? game : undefined;
  const base = `bombcheckers-${room}-game${game}`;
  const items = [
    h(
      'a.menu-item',
      {
        id: 'export-json',
        href: recordUrl(room, q),
        download: `${base}.json`,
        role: 'menuitem',
      },
      h('strong', {}, t('export.record')),
      h('small', {}, t('export.record_small')),
    ),
  ];
  if (app.gameNo > 1) {
    const sel = h(
      'select',
      { id: 'export-game', 'aria-label': t('export.which') },
      ...Array.from({ length: app.gameNo }, (_, k) =>
        h(
          'option',
          { value: k + 1, selected: k + 1 === game },
          k + 1 === app.gameNo ? t('replay.game_this', { game: k + 1 }) : t('moves.game', { game: k + 1 }),
        ),
      ),
    );
    sel.addEventListener('change', () => {
      exportPick = Number(sel.value);
      renderExportMenu();
    });
    items.unshift(h('label.menu-game', {}, h('span', {}, t('html.game')), sel));
  }
  // The server says which notation it writes for each variant (welcome's variants).
  const notation = app.variants.find((v) => v.id === s.variant)?.notation;
  if (notation === 'pdn') {
    const pdn = h(
      'a.menu-item',
      { id: 'export-pdn', href: pdnUrl(room, q), download: `${base}.pdn`, role: 'menuitem', 'aria-disabled': 'true' },
      h('strong', {}, 'PDN'),
      h('small', {}, t('export.pdn_small')),
    );
    pdn.classList.add('checking');
    items.push(pdn);
    checkPdn(pdn);
  }
  if (notation === 'text') {
    items.push(
      h(
        'button.menu-item',
        { type: 'button', id: 'export-text', role: 'menuitem', onclick: () => exportKaboomText(room, game, q) },
        h('strong', {}, t('export.text')),
        h('small', {}, t('export.text_small')),
      ),
    );
  }
  // The turns as plain text, in the notation the page shows them in.
  const shown = currentNotation(s.variant);
  const label = notationChoices(s.variant).find((n) => n.id === shown)?.label;
  items.push(
    h(
      'button.menu-item',
      { type: 'button', id: 'export-moves', role: 'menuitem', onclick: () => exportMoveList(room, game, q, base) },
      h('strong', {}, t('export.moves')),
      h('small', {}, label ? t('export.moves_small_in', { label }) : t('export.moves_small')),
    ),
  );
  if (isConnect(s.variant) && shown === 'gamesman') {
    items.push(
      h(
        'button.menu-item',
        { type: 'button', id: 'export-gamesman', role: 'menuitem', onclick: () => exportGamesman(room, q, base) },
        h('strong', {}, t('export.gamesman')),
        h('small', {}, t('export.gamesman_small')),
      ),
    );
  }
  if (app.offline) {
    for (const a of items) if (a.tagName === 'A') a.addEventListener('click', (e) => downloadHere(e, a));
  }
  list.replaceChildren(...items);
}

/** Offline, a link's file comes from the game in this browser (apiFetch asks it), not the server. */
async function downloadHere(event, link) {
  event.preventDefault();
  if (!link.href) return;
  try {
    const res = await apiFetch(link.href, { cache: 'no-store' });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    download(link.download, await res.text(), res.headers.get('Content-Type') ?? undefined);
  } catch (e) {
    toast(t('export.failed', { msg: e.message }), 'error');
  }
}

/** The move list from the server's record (every turn, also of an earlier game). */
async function exportMoveList(room, game, q, base) {
  try {
    const rec = await fetchRecord(room, q);
    if (!rec) throw new Error('no record');
    const variant = rec.variant ?? app.state.variant;
    const sides = sidesOf(variant);
    download(
      `${base}-moves.txt`,
      moveListText(
        {
          title: `${variantName(variant, app.variants)}, room ${room}, game ${game}`,
          variant,
          options: rec.options ?? {},
          options_text: rec.options_text ?? app.state?.options_text ?? '',
          sides,
          players: Object.fromEntries(sides.map((side) => [side, rec.players?.[side]?.name ?? ''])),
          result: rec.result ? resultShort(rec.result, sides) : t('export.in_progress'),
          turns: movesFromRecord(rec),
        },
        currentNotation(variant),
      ),
    );
    $('#export-menu').open = false;
  } catch {
    toast(t('export.load_failed'), 'error');
  }
}

/** The positions the server made by replaying the game, as Gamesman strings. */
async function exportGamesman(room, q, base) {
  const positions = await fetchPositions(room, q);
  if (!positions) {
    toast(t('export.no_positions'), 'error');
    return;
  }
  download(`${base}-gamesman.txt`, gamesmanSequence(positions));
  $('#export-menu').open = false;
}

/** Offers the PDN only if this server makes one. */
async function checkPdn(link) {
  let ok;
  try {
    const res = await apiFetch(link.href, { method: 'HEAD', cache: 'no-store' });
    ok = res.ok;
  } catch {
    ok = false;
  }
  link.classList.remove('checking');
  if (ok) {
    link.removeAttribute('aria-disabled');
  } else {
    link.classList.add('unavailable');
    link.removeAttribute('href');
    link.querySelector('small').textContent = t('export.not_offered');
  }
}

/** Kaboom's text record, as the server writes it (GET /api/games/{room}.pdn serves it for Kaboom). */
async function exportKaboomText(room, game, q) {
  try {
    const res = await apiFetch(pdnUrl(room, q), { cache: 'no-store' });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    download(`kaboom-${room}-game${game}.txt`, await res.text());
    $('#export-menu').open = false;
  } catch {
    toast(t('export.load_failed'), 'error');
  }
}

$('#export-menu').addEventListener('toggle', () => {
  if ($('#export-menu').open) renderExportMenu();
  else exportPick = null;
});
document.addEventListener('click', (e) => {
  const menu = $('#export-menu');
  if (menu.open && !menu.contains(e.target)) menu.open = false;
});
$('#export-list').addEventListener('click', (e) => {
  const a = e.target.closest('a.menu-item');
  if (!a) return;
  if (!a.getAttribute('href')) {
    e.preventDefault();
    return;
  }
  setTimeout(() => {
    $('#export-menu').open = false;
  }, 0);
});
