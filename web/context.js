// What every part of the page shares: the board's canvas and view, the connection, and small
// questions about the latest state (whose turn, which side we play, what we may do).

import { Net } from './net.js';
import { BoardView } from './board.js';
import { $, DEFAULT_SIDES, aiName, toast } from './ui.js';
import { app, store } from './state.js';
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

export function sidesOf(variant) {
  const v = app.variants.find((x) => x.id === variant);
  const sides = v?.sides?.map((s) => (typeof s === 'string' ? s : (s.id ?? s.name)));
  return sides?.length === 2 ? sides : (DEFAULT_SIDES[variant] ?? ['fire', 'water']);
}

export function isPlayer() {
  const s = app.state;
  return !!s && !!app.seat && sidesOf(s.variant).includes(app.seat);
}

/** Whether this page holds both seats of a one-screen room, and so plays for the side to move. */
export function atOneScreen() {
  return app.oneScreen && isPlayer();
}

/** The side this page plays for now: its seat, or at one screen the side to move. */
export function mySide() {
  return atOneScreen() ? app.state.turn : app.seat;
}

export function myLegal() {
  const s = app.state;
  if (!s || app.replay || app.pending || app.replaced || !isPlayer() || s.status !== 'playing' || s.turn !== mySide())
    return [];
  return Array.isArray(s.legal) ? s.legal : [];
}

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
    return store.turnBoard && side === sides[1];
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

const MAX_REQUESTS = 100;

export function send(msg, meta) {
  const id = net.send(msg);
  if (id === null) {
    toast('Not connected right now; trying to reconnect…', 'error');
    return null;
  }
  if (meta) {
    app.requests.set(id, meta);
    // Replies take their entries out; this bounds what unanswered ones can pile up.
    while (app.requests.size > MAX_REQUESTS) app.requests.delete(app.requests.keys().next().value);
  }
  return id;
}

/** The computer's name at `level`, in the words the server gives its levels. */
export function aiLevelName(level) {
  return aiName(level, app.ai.names);
}
