// Playing without a pointer: a focus square on the board (arrow keys move it, Enter or Space picks
// a piece and puts it down, Escape cancels), a box to type a move in the game's notation (completed
// from the legal moves: turn_words.js's matchTyped), the board as text, the clocks read out, and
// keys for them (M, B, C, L). What the keys do is said through the live region (announce.js).

import { $, h } from './ui.js';
import { t, sideWord } from './i18n.js';
import { app, subscribe } from './store/store.js';
import { board, canvas, isPlayer, myLegal, mySide, pieceAt, sidesOf } from './context.js';
import { act } from './acts.js';
import { clickSquare } from './input.js';
import { timeLeft, formatClock } from './clocks.js';
import { serverNow } from './server_time.js';
import { announce, lastTurnWords, nameOf } from './announce.js';
import { boardKeys } from './board_keys.js';
import { actionNames, isTypedSquare, matchTyped, pdnName, pieceWords, squareWords } from './turn_words.js';
import { same } from './squares.js';
import { isConnect } from './variants.js';

const dims = () => ({ width: app.state?.board?.width ?? 8, height: app.state?.board?.height ?? 8 });

// ---- the focus square -------------------------------------------------------------------------

/** Where the focus square starts: the selected piece, else a piece that can move, else the middle. */
function startSquare() {
  if (app.selected) return app.selected;
  const mover = myLegal().find((a) => a.from);
  if (mover) return mover.from;
  const { width, height } = dims();
  const col = myLegal().find((a) => a.kind === 'drop')?.column ?? Math.floor(width / 2);
  return isConnect(app.state?.variant) ? [col, height - 1] : [Math.floor(width / 2), Math.floor(height / 2)];
}

const keys = boardKeys(canvas, board, {
  ready: () => !!app.state && !app.replay,
  start: startSquare,
  describe: (sq) => squareWords(sq, pieceAt(sq), nameOf, isConnect(app.state?.variant)),
  space: () => !myLegal().some((a) => a.kind === 'end_turn'),
  click: (sq) => {
    const before = app.selected;
    clickSquare(sq);
    if (app.selected && !same(app.selected, before)) announce(t('kb.picked', { square: nameOf(app.selected) }));
  },
});

// ---- the typed move ---------------------------------------------------------------------------

let rest = []; // the squares of a typed capture sequence still to go ("c3xe5xc7": e5, c7)

function options() {
  const list = $('#move-options');
  list.replaceChildren(
    ...myLegal().map((a) => h('option', { value: actionNames(a, dims())[0], label: pdnName(a, dims()) })),
  );
}

$('#move-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const input = $('#move-input');
  const text = input.value.trim();
  const legal = myLegal();
  if (!isPlayer() || !legal.length) {
    announce(t('kb.not_now'));
    return;
  }
  const got = matchTyped(text, legal, dims());
  if (got.action) {
    rest = got.rest;
    input.value = '';
    act(got.action);
    return;
  }
  const names = got.candidates.map((a) => actionNames(a, dims())[0]);
  announce(names.length ? t('kb.ambiguous', { text, list: names.join(', ') }) : t('kb.no_match', { text }));
});

/** The next hop of a typed capture sequence, when its turn goes on. */
function continueTyped() {
  const s = app.state;
  if (rest.length < 2 || !s?.mid_turn || s.turn !== mySide()) {
    if (!s?.mid_turn) rest = [];
    return;
  }
  const hop = myLegal().find(
    (a) => a.kind === 'jump' && isTypedSquare(rest[0], a.from) && isTypedSquare(rest[1], a.to),
  );
  rest = rest.slice(1);
  if (hop) act(hop);
}

// ---- the board as text, the clocks ------------------------------------------------------------

function renderBoardText() {
  const box = $('#board-text');
  if (box.hidden) return;
  const s = app.state;
  const pieces = [...(s?.board?.pieces ?? [])].sort((a, b) => b.at[1] - a.at[1] || a.at[0] - b.at[0]);
  const caption = s ? t('kb.to_move_caption', { side: sideWord(s.turn) }) : '';
  box.replaceChildren(
    h(
      'table.board-table',
      {},
      h('caption', {}, caption),
      h(
        'thead',
        {},
        h('tr', {}, h('th', { scope: 'col' }, t('kb.square_col')), h('th', { scope: 'col' }, t('kb.piece_col'))),
      ),
      h(
        'tbody',
        {},
        pieces.map((p) =>
          h('tr', {}, h('th', { scope: 'row' }, nameOf(p.at)), h('td', {}, pieceWords(p, isConnect(s.variant)))),
        ),
      ),
    ),
  );
}

function toggleBoardText() {
  const box = $('#board-text');
  box.hidden = !box.hidden;
  $('#board-text-toggle').setAttribute('aria-expanded', String(!box.hidden));
  renderBoardText();
  if (!box.hidden) box.focus();
}

function readClocks() {
  const s = app.state;
  if (!s) return announce(t('ann.no_game'));
  if (!s.clock) return announce(t('ann.no_clock'));
  const now = serverNow();
  const words = sidesOf(s.variant).map((side) => {
    const ms = timeLeft(s.clock, side, now);
    return t('ann.clock', { side: sideWord(side), time: ms === null ? '–' : formatClock(ms) });
  });
  announce(words.join('; '));
}

$('#board-text-toggle').addEventListener('click', toggleBoardText);
$('#read-clocks').addEventListener('click', readClocks);

// M: the move box, B: the board as text, C: the clocks, L: the last turn again.
document.addEventListener('keydown', (e) => {
  const typing = e.target.closest?.('input, textarea, select, [contenteditable]');
  if (typing || $('#game').hidden || e.altKey || e.ctrlKey || e.metaKey || document.querySelector('dialog[open]'))
    return;
  const key = e.key.toLowerCase();
  if (key === 'm') {
    e.preventDefault();
    $('#move-input').focus();
  } else if (key === 'b') toggleBoardText();
  else if (key === 'c') readClocks();
  else if (key === 'l') announce(lastTurnWords());
});

subscribe(() => {
  if (!app.state) {
    keys.forget();
    return;
  }
  options();
  renderBoardText();
  continueTyped();
  keys.redraw();
});
