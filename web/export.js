// Taking a game away: the record, PDN for checkers, the Kaboom text record.

import { $, h, toast } from './ui.js';
import { download, pdnUrl, recordUrl } from './replay.js';
import { app } from './state.js';
import { apiFetch } from './net.js';

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
  const items = [h('a.menu-item', {
    id: 'export-json', href: recordUrl(room, q), download: `${base}.json`, role: 'menuitem',
  }, h('strong', {}, 'Game record'), h('small', {}, 'JSON: variant, options, players, every action'))];
  if (app.gameNo > 1) {
    const sel = h('select', { id: 'export-game', 'aria-label': 'Which game to export' },
      ...Array.from({ length: app.gameNo }, (_, k) => h('option', { value: k + 1, selected: k + 1 === game },
        k + 1 === app.gameNo ? `Game ${k + 1} (this one)` : `Game ${k + 1}`)));
    sel.addEventListener('change', () => {
      exportPick = Number(sel.value);
      renderExportMenu();
    });
    items.unshift(h('label.menu-game', {}, h('span', {}, 'Game'), sel));
  }
  // The server says which notation it writes for each variant (welcome's variants).
  const notation = app.variants.find((v) => v.id === s.variant)?.notation;
  if (notation === 'pdn') {
    const pdn = h('a.menu-item', { id: 'export-pdn', href: pdnUrl(room, q), download: `${base}.pdn`, role: 'menuitem', 'aria-disabled': 'true' },
      h('strong', {}, 'PDN'), h('small', {}, 'Portable Draughts Notation, for checkers programs'));
    pdn.classList.add('checking');
    items.push(pdn);
    checkPdn(pdn);
  }
  if (notation === 'text') {
    items.push(h('button.menu-item', { type: 'button', id: 'export-text', role: 'menuitem', onclick: () => exportKaboomText(room, game, q) },
      h('strong', {}, 'Text record'), h('small', {}, 'Plain text: players, options, every drop and detonation')));
  }
  list.replaceChildren(...items);
}

/** Offers the PDN only if this server makes one. */
async function checkPdn(link) {
  let ok = false;
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
    link.querySelector('small').textContent = 'Not offered by this server';
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
    toast('The game record could not be loaded.', 'error');
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
  setTimeout(() => { $('#export-menu').open = false; }, 0);
});
