// The notation picked for a variant (notation.js) on the game screen: its select by the move list
// (kept per variant in this browser), the board's edge labels, the Gamesman string under a Kaboom
// board, and the words of the move list and the replay bar.

import { t } from './i18n.js';
import { $, copyText, h, toast } from './ui.js';
import { app } from './store/store.js';
import { saved } from './store/saved.js';
import { board, canvas, flipped } from './context.js';
import { edgeLabels, edgeWords, formatTurn, gamesmanOf, notationChoices, notationOf } from './notation.js';
import { screen } from './screen.js';
import { loadPositions } from './game_positions.js';
import { isConnect } from './variants.js';

/** The notation of a variant's games in this browser. */
export function currentNotation(variant = app.state?.variant) {
  return notationOf(variant, saved.notation(variant));
}

const dims = (s) => ({ width: s?.board?.width ?? 8, height: s?.board?.height ?? 8 });

/** A turn ({side, actions}) in the chosen notation. */
export function moveText(m) {
  return formatTurn(m, currentNotation(), dims(app.state));
}

/** The Gamesman position after a turn of `game`, when that notation is on and the position is
 *  known; asks the server for the game's positions once when it is not. */
export function positionAfterMove(m, game) {
  const s = app.state;
  if (!isConnect(s?.variant) || currentNotation() !== 'gamesman' || !m.versions?.length) return null;
  const snap = app.games.get(game)?.get(Math.max(...m.versions));
  if (!snap?.board) {
    loadPositions(game); // the positions it brings draw the screen again
    return null;
  }
  return gamesmanOf(snap, m.side === 'x' ? 'o' : 'x');
}

/** A Gamesman string as nodes whose text is the string, each of its words unbroken: a browser
 *  would otherwise wrap a line after any "-" of a row. */
export function gamesmanNodes(text) {
  return text
    .split(' ')
    .flatMap((word, i) => [i ? ' ' : null, h('span.nobr', {}, word)])
    .filter(Boolean);
}

// Screen readers hear the edges' labels (the canvas draws them) through the board's description.
const edgesText = h('p.sr-only', { id: 'board-edges' });
$('#board-area').append(edgesText);
canvas.setAttribute('aria-describedby', 'board-edges');

const select = $('#notation');
let selectFor = null;

/** The select, the edge labels and the Gamesman line, for the position `view` shows. */
export function renderNotation(view) {
  const variant = view?.variant ?? null;
  const choices = notationChoices(variant);
  const notation = currentNotation(variant);
  select.hidden = choices.length < 2;
  if (selectFor !== variant) {
    selectFor = variant;
    select.replaceChildren(...choices.map((n) => h('option', { value: n.id }, n.label)));
  }
  if (choices.length) select.value = notation;

  const labels = view ? edgeLabels(variant, notation, dims(view), flipped()) : null;
  board.setLabels(labels);
  canvas.dataset.notation = view ? notation : '';
  canvas.dataset.edgeCols = labels?.cols.join(',') ?? '';
  canvas.dataset.edgeRows = labels?.rows.join(',') ?? '';
  edgesText.textContent = edgeWords(labels);

  const line = $('#position-line');
  const gamesman = isConnect(variant) && notation === 'gamesman' && !!view?.board;
  if (line.hidden === gamesman) line.hidden = !gamesman;
  const text = gamesman ? gamesmanOf(view) : '';
  const out = $('#position-text');
  if (out.textContent !== text) out.replaceChildren(...(text ? gamesmanNodes(text) : []));
}

select.addEventListener('change', () => {
  const variant = app.state?.variant;
  if (!variant) return;
  saved.setNotation(variant, select.value);
  screen.render();
});

$('#position-copy').addEventListener('click', async () => {
  const text = $('#position-text').textContent;
  const ok = await copyText(text);
  toast(ok ? t('ed.position_copied') : t('notation.copy_position', { text }), ok ? 'ok' : 'info');
});
