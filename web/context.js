// What every part of the page shares: the board's canvas and view, the connection, and small
// questions about the latest state (whose turn, which side we play, what we may do).

import { t } from './i18n.js';
import { Net } from './net.js';
import { BoardView } from './board.js';
import { $, aiName, toast } from './ui.js';
import { app, dispatch } from './store/store.js';
import { saved } from './store/saved.js';
import * as select from './store/select.js';
import { same } from './squares.js';
import { isConnect } from './variants.js';

export const canvas = $('#board');
export const board = new BoardView(canvas);
// compact=2: after the first full state, each change comes as a small `delta` with short actions
// (delta.js).
const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws?compact=2`;
// What the connection reports goes to connection.js, set by app.js: this module imports no other
// part of the page, so what it exports is ready before any of them runs.
export const netEvents = { message: () => {}, open: () => {}, down: () => {} };
export const net = new Net(wsUrl, {
  message: (msg) => netEvents.message(msg),
  open: () => netEvents.open(),
  down: (retryMs) => netEvents.down(retryMs),
});

// ---- small helpers ----------------------------------------------------------------------------

export { same }; // squares.js's, for the page's modules

// The store's questions (store/select.js), asked of the latest state.
export const sidesOf = (variant) => select.sidesOf(app, variant);
export const isPlayer = () => select.isPlayer(app);
/** Whether this page holds both seats of a one-screen room, and so plays for the side to move. */
export const atOneScreen = () => select.atOneScreen(app);
/** The side this page plays for now: its seat, or at one screen the side to move. */
export const mySide = () => select.mySide(app);
export const myLegal = () => select.myLegal(app);
/** The piece that must or may go on capturing: the only mover while a sequence is under way. */
export const sequencePiece = () => select.sequencePiece(app);

let shownTurn = { game: '', side: null }; // at one screen: the side to move last shown in a game

function baseFlipped() {
  const s = app.state;
  if (!s || isConnect(s.variant)) return false;
  const sides = sidesOf(s.variant);
  if (atOneScreen()) {
    // The setting "Turn the board with the turn": the side to move at the bottom, and once the
    // game is over the board stays as it was; without it the first side stays at the bottom.
    const game = `${s.room}:${s.game}`;
    if (s.status === 'playing') shownTurn = { game, side: s.turn };
    const side = shownTurn.game === game ? shownTurn.side : s.turn;
    return saved.turnBoard && side === sides[1];
  }
  return isPlayer() && app.seat === sides[1];
}

export function flipped() {
  return !isConnect(app.state?.variant) && baseFlipped() !== app.userFlip;
}

export function pieceAt(sq) {
  return app.state?.board?.pieces?.find((p) => same(p.at, sq)) ?? null;
}

let hintTimer = 0;
export function hint(text) {
  const el = $('#hint');
  el.textContent = text;
  el.classList.add('show');
  clearTimeout(hintTimer);
  hintTimer = setTimeout(() => el.classList.remove('show'), 2600);
}

/** A hint is about the position it was given for: a new position (or the end) clears it. */
export function clearHint() {
  const el = $('#hint');
  clearTimeout(hintTimer);
  el.classList.remove('show');
  el.textContent = '';
}

export function send(msg, meta) {
  const id = net.send(msg);
  if (id === null) {
    toast(t('conn.not_connected'), 'error');
    return null;
  }
  if (meta) dispatch({ type: 'sent/request', id, meta });
  return id;
}

/** The computer's name at `level`, in the words the server gives its levels. */
export function aiLevelName(level) {
  return aiName(level, app.ai.names);
}
