// The client's state: the one object the page's parts read and change (the latest state from the
// server, the seat, the replay, ...), and what this browser remembers between visits.

import { aiLevels } from './ui.js';

// ---- persistence ------------------------------------------------------------------------------

/** Room ids are case-insensitive and the server's are upper-case: "k7qf2m " from a link or the
 *  join box must find the seat saved under "K7QF2M". */
export const normRoom = (room) =>
  String(room ?? '')
    .trim()
    .toUpperCase();

/** The room in a link's path segment, or null when its %-escapes are broken (a link cut short). */
export function decodeRoom(segment) {
  try {
    return normRoom(decodeURIComponent(segment));
  } catch {
    return null;
  }
}

export const store = {
  get name() {
    return localStorage.getItem('bc.name') ?? '';
  },
  set name(v) {
    localStorage.setItem('bc.name', v);
  },
  get ai() {
    try {
      const v = JSON.parse(localStorage.getItem('bc.ai') ?? 'null');
      return v && typeof v === 'object' ? v : { on: false, level: null };
    } catch {
      return { on: false, level: null };
    }
  },
  set ai(v) {
    localStorage.setItem('bc.ai', JSON.stringify(v));
  },
  /** The second player's name at one screen ("both sides on this screen"). */
  get name2() {
    return localStorage.getItem('bc.name2') ?? '';
  },
  set name2(v) {
    localStorage.setItem('bc.name2', v);
  },
  /** At one screen: whether the board turns so that the side to move is at the bottom. */
  get turnBoard() {
    return localStorage.getItem('bc.turnBoard') === '1';
  },
  set turnBoard(v) {
    localStorage.setItem('bc.turnBoard', v ? '1' : '0');
  },
  get muted() {
    return localStorage.getItem('bc.muted') === '1';
  },
  set muted(v) {
    localStorage.setItem('bc.muted', v ? '1' : '0');
  },
  /** The notation picked for a variant's games (notation.js), or null for its default. */
  notation(variant) {
    return localStorage.getItem(`bc.notation.${variant}`);
  },
  setNotation(variant, id) {
    localStorage.setItem(`bc.notation.${variant}`, id);
  },
  seat(room) {
    try {
      const v = JSON.parse(localStorage.getItem(`bc.seat.${normRoom(room)}`) ?? 'null');
      return v && typeof v.token === 'string' ? v : null;
    } catch {
      return null;
    }
  },
  /** `oneScreen`: the token holds both seats (a one-screen room). */
  saveSeat(room, token, seat, oneScreen = false) {
    const v = { token, seat, at: Date.now() };
    if (oneScreen) v.oneScreen = true;
    localStorage.setItem(`bc.seat.${normRoom(room)}`, JSON.stringify(v));
  },
  dropSeat(room) {
    localStorage.removeItem(`bc.seat.${normRoom(room)}`);
  },
};

// ---- application state ------------------------------------------------------------------------

export const app = {
  variants: [],
  room: null, // the room we are in (or about to join)
  seat: null, // our side, or 'spectator'
  oneScreen: false, // we hold both seats (a one-screen room): we play for the side to move
  token: null,
  url: null,
  joinReq: null, // the join to (re)send whenever the socket opens: {room, seat, name, token}
  requests: new Map(), // request id -> {kind, ...}
  state: null,
  selected: null,
  premove: null, // our next move, chosen during the other side's turn: {from, to} or {action}
  pending: false, // an `act` is on its way; wait for the state
  userFlip: false,
  moves: [], // [{side, actions, exploded, promoted}]
  movesPartial: false,
  drawOffer: null,
  rematchAsked: false,
  overlayClosed: false,
  everConnected: false,
  offline: false, // playing with no server (welcome's `offline`): web/local_socket.js
  hover: null,
  welcome: null, // the server's welcome message
  ai: aiLevels(null), // computer opponents, from welcome (else levels 1..8, not advertised)
  aiRequested: null, // the level asked for in our `create`, while that game waits to start
  creating: null, // the id of our latest `create`, until its `joined` arrives
  replaced: false, // another tab took our seat with its token: this one is paused
  gameNo: 1, // the room's game number (state.game; it goes up with each rematch)
  games: new Map(), // game number -> Map(version -> snapshot): every position this tab has seen
  replay: null, // {game, version, moves, record} while looking at a past position
  positionsTried: new Set(), // "game" keys whose positions were already asked of the server
  pastMoves: new Map(), // game number -> the move list of an earlier game of the room
  invite: null, // {room, share, own, lan, qr}: the invitation links (GET /api/server)
  presence: null, // the room's players' connections and lag, from `presence`: {side: {connected, lag}}
  leftSide: null, // the side that left this game (its last state.away), to say who left after a claim
  claiming: false, // our `claim` is on its way
};
