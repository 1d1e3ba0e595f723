// Playing: what a click, a drag or a key means. Every move sent is taken unchanged from `legal`.

import { t } from './i18n.js';
import { $, sideName } from './ui.js';
import { app, dispatch } from './store/store.js';
import {
  atOneScreen,
  board,
  canvas,
  hint,
  isPlayer,
  myLegal,
  mySide,
  pieceAt,
  same,
  sequencePiece,
} from './context.js';
import { screen } from './screen.js';
import { closeReplay, openReplay, replayGo } from './replay_view.js';
import { cancelPremove, premoveClick, premoveTime } from './premove.js';
import { act, endTurn } from './acts.js';
import { isConnect } from './variants.js';

const select = (square) => dispatch({ type: 'want/select', square });

export function clickSquare(sq) {
  const s = app.state;
  if (!s || !sq) return;
  if (app.replay) {
    const running = app.replay.game === app.gameNo && s.status !== 'finished';
    hint(running ? t('input.earlier_position') : t('input.replay_step'));
    return;
  }
  if (app.replaced) {
    hint(t('input.other_tab'));
    return;
  }
  if (!isPlayer()) {
    hint(t('input.watching'));
    return;
  }
  if (s.status === 'waiting') {
    hint(t('input.waiting'));
    return;
  }
  if (s.status !== 'playing') {
    hint(t('input.over'));
    return;
  }
  if (app.pending) return;
  if (s.turn !== mySide()) {
    premoveClick(sq);
    return;
  }
  const legal = myLegal();
  if (isConnect(s.variant)) {
    const det = legal.find((a) => a.kind === 'detonate' && same(a.at, sq));
    if (det) return act(det);
    const drop = legal.find((a) => a.kind === 'drop' && a.column === sq[0] && a.piece !== 'bomb');
    if (drop) return act(drop);
    hint(t('input.column_full'));
    board.flash(sq);
    return;
  }
  if (app.selected) {
    const a = legal.find((x) => same(x.from, app.selected) && same(x.to, sq));
    if (a) return act(a);
  }
  const seq = sequencePiece();
  if (legal.some((a) => same(a.from, sq))) {
    select(same(app.selected, sq) && !seq ? null : sq);
    return;
  }
  board.flash(sq);
  const p = pieceAt(sq);
  if (seq)
    hint(legal.some((a) => a.kind === 'end_turn') ? t('input.keep_capturing_or_end') : t('input.keep_capturing'));
  else if (p && p.side === mySide()) hint(t('input.no_move'));
  else if (app.selected) hint(t('input.cannot_go'));
  else hint(atOneScreen() ? t('input.pick_side', { side: sideName(s.turn) }) : t('input.pick'));
  if (!seq && app.selected && !(p && p.side === mySide())) select(null);
}

let downSq = null;
let eatMenu = false; // a right click that cancelled a premove opens no menu
canvas.addEventListener('pointerdown', (e) => {
  if (e.button === 2) {
    eatMenu = cancelPremove();
    return;
  }
  if (e.button !== 0) return;
  downSq = board.squareAtClient(e.clientX, e.clientY);
  if (!downSq || isConnect(app.state?.variant)) return;
  // Pressing on one of your movable pieces picks it up at once, so it can be dragged; during the
  // other side's turn, any of your pieces, for a premove.
  if (myLegal().some((a) => same(a.from, downSq)) && !same(app.selected, downSq)) {
    const sq = downSq;
    downSq = [...downSq, 'picked'];
    select(sq);
  } else if (premoveTime() && pieceAt(downSq)?.side === app.seat && !same(app.premove?.from, downSq)) {
    const sq = downSq;
    downSq = [...downSq, 'picked'];
    premoveClick(sq);
  }
});
canvas.addEventListener('contextmenu', (e) => {
  if (eatMenu || cancelPremove()) {
    e.preventDefault();
    eatMenu = false;
  }
});
canvas.addEventListener('pointerup', (e) => {
  if (e.button !== 0 || !downSq) return;
  const up = board.squareAtClient(e.clientX, e.clientY);
  const picked = downSq[2] === 'picked';
  const from = downSq.slice(0, 2);
  downSq = null;
  if (!up) return;
  if (picked && same(up, from)) return; // a plain click that selected the piece
  clickSquare(up);
});
canvas.addEventListener('pointercancel', () => {
  downSq = null;
});
canvas.addEventListener('pointermove', (e) => {
  const sq = board.squareAtClient(e.clientX, e.clientY);
  if (same(sq, app.hover)) return;
  dispatch({ type: 'want/hover', square: sq });
  const legal = myLegal();
  const clickable =
    sq &&
    (legal.some((a) => same(a.from, sq) || (app.selected && same(a.from, app.selected) && same(a.to, sq))) ||
      legal.some((a) => (a.kind === 'detonate' && same(a.at, sq)) || (a.kind === 'drop' && a.column === sq[0])));
  canvas.style.cursor = clickable ? 'pointer' : 'default';
  board.setUi({ hover: sq, ghost: screen.ghost(legal) });
});
canvas.addEventListener('pointerleave', () => {
  dispatch({ type: 'want/hover', square: null });
  board.setUi({ hover: null, ghost: null });
});

document.addEventListener('keydown', (e) => {
  const typing =
    e.target instanceof HTMLInputElement ||
    e.target instanceof HTMLTextAreaElement ||
    e.target instanceof HTMLSelectElement;
  if (typing || $('#game').hidden) return;
  if (e.key === ' ' || e.code === 'Space') {
    // Space belongs to a dialog, or to the focused control (a button, the Export menu's summary);
    // and with nothing to do it scrolls the page as usual.
    if (document.querySelector('dialog[open]') || e.target.closest?.('button, summary, a[href], [contenteditable]'))
      return;
    if (myLegal().some((a) => a.kind === 'end_turn')) {
      e.preventDefault();
      endTurn();
    } else if (e.target === canvas && isPlayer() && app.state?.status === 'playing') {
      e.preventDefault();
      hint(t('input.space_ends'));
    }
  } else if (e.key === 'Escape') {
    if (document.querySelector('dialog[open]')) return; // the dialog's own Escape
    if ($('#export-menu').open) {
      $('#export-menu').open = false;
    } else if (app.replay) {
      closeReplay();
    } else if (!cancelPremove() && app.selected) {
      select(null);
    }
  } else if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key) && !e.altKey && !e.ctrlKey && !e.metaKey) {
    if (!app.state || document.querySelector('dialog[open]')) return;
    if (app.replay) {
      e.preventDefault();
      replayGo({ ArrowLeft: -1, ArrowRight: 1, Home: 'first', End: 'last' }[e.key]);
    } else if ((e.key === 'ArrowLeft' || e.key === 'Home') && app.state.version > 0) {
      // Looking back starts a replay of this game.
      e.preventDefault();
      openReplay(e.key === 'Home' ? 0 : app.state.version - 1);
    }
  }
});
