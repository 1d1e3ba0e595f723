// The session slice: the server (its welcome, its variants and computer levels, whether it is the
// browser's own offline one), the room this page is in or entering, its seat and token, and the
// requests on their way.

import { aiLevels } from '../ui.js';

const MAX_REQUESTS = 100;

export function newSession() {
  return {
    welcome: null, // the server's welcome message
    variants: [],
    ai: aiLevels(null), // computer opponents, from welcome (else levels 1..8, not advertised)
    offline: false, // playing with no server (welcome's `offline`): web/local_socket.js
    everConnected: false,
    room: null, // the room we are in (or about to join)
    seat: null, // our side, or 'spectator'
    oneScreen: false, // we hold both seats (a one-screen room): we play for the side to move
    token: null,
    url: null,
    joinReq: null, // the join to (re)send whenever the socket opens: {room, seat, name, token}
    requests: new Map(), // request id -> {kind, ...}
    creating: null, // the id of our latest `create`, until its `joined` arrives
    aiRequested: null, // the level asked for in our `create`, while that game waits to start
    replaced: false, // another tab took our seat with its token: this one is paused
  };
}

/** What leaving a game forgets (the room itself is forgotten only by leaving). */
function forgetSeat(s) {
  s.replaced = false;
  s.seat = null;
  s.oneScreen = false;
  s.token = null;
  s.aiRequested = null;
}

function answered(s, { id }) {
  s.requests.delete(id);
}

function nobodyToJoin(s) {
  s.joinReq = null;
}

export const sessionReducers = {
  'got/welcome'(s, { msg }) {
    s.welcome = msg;
    s.offline = !!msg.offline;
    s.ai = aiLevels(msg);
    if (Array.isArray(msg.variants) && msg.variants.length) s.variants = msg.variants;
  },
  'net/open'(s) {
    s.everConnected = true;
  },
  'net/down'(s) {
    s.requests.clear(); // nothing sent on the old socket will be answered
  },
  'net/offline': nobodyToJoin,
  'want/server': nobodyToJoin,
  'sent/request'(s, { id, meta }) {
    s.requests.set(id, meta);
    // Replies take their entries out; this bounds what unanswered ones can pile up.
    while (s.requests.size > MAX_REQUESTS) s.requests.delete(s.requests.keys().next().value);
  },
  'got/ok': answered,
  'got/reply': answered,
  /** A `joined` for us: `fresh` when it is for another room than the one we were in. */
  'got/joined'(s, { id, room, seat, oneScreen, url, token, name, fresh, create }) {
    s.requests.delete(id);
    if (fresh) forgetSeat(s);
    s.creating = null;
    s.replaced = false;
    if (create) s.aiRequested = create.ai ?? null;
    s.room = room;
    s.seat = seat;
    s.oneScreen = oneScreen && seat !== 'spectator';
    s.url = url;
    if (token && seat !== 'spectator' && !s.offline) s.token = token;
    s.joinReq = { room, seat, name, token: seat !== 'spectator' ? s.token : null };
  },
  'got/state'(s, { state, newGame }) {
    if (state.status !== 'waiting' || newGame) s.aiRequested = null;
    s.room = state.room ?? s.room;
  },
  /** Another tab or device took this seat with our token: this page does not fight it for it. */
  'got/replaced'(s) {
    s.joinReq = null;
    s.replaced = true;
  },
  'got/room_closed': nobodyToJoin,
  'want/play_here'(s, { name }) {
    s.joinReq = { room: s.room, seat: s.seat, name, token: s.token };
  },
  'got/error'(s, { id, req, code }) {
    s.requests.delete(id);
    if (req?.kind !== 'join') return;
    if (code === 'unknown_room' || code === 'too_many_spectators') s.joinReq = null;
    else if (code === 'bad_token') {
      // `any` takes a free seat if the room still waits for players, and watches otherwise.
      s.token = null;
      s.joinReq = { room: req.room, seat: 'any', name: req.name, token: null, lostSeat: true };
    } else if ((code === 'seat_taken' || code === 'rating_out_of_range') && req.seat !== 'spectator') {
      s.token = null;
      s.joinReq = { room: req.room, seat: 'spectator', name: req.name, token: null };
    }
  },
  'want/enter'(s, { room, seat, name, token, fresh }) {
    if (fresh) forgetSeat(s);
    s.room = room;
    s.joinReq = { room, seat, name, token };
  },
  'want/leave'(s) {
    forgetSeat(s);
    s.room = null;
    s.joinReq = null;
    s.creating = null;
  },
  'want/create': forgetSeat,
  'sent/create'(s, { id }) {
    s.joinReq = null;
    s.creating = id;
  },
};
