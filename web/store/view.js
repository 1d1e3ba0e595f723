// The view slice: what this page shows of the game and how (the piece picked, the premove, the
// square under the pointer, the board turned by hand, the result card closed, the past position
// looked at, the invitation's links).

import { myLegal, sequencePiece } from './select.js';
import { same } from '../squares.js';

export function newView() {
  return {
    selected: null,
    premove: null, // our next move, chosen during the other side's turn: {from, to} or {action}
    hover: null,
    userFlip: false,
    overlayClosed: false,
    replay: null, // {game, version, moves, record} while looking at a past position
    invite: null, // {room, share, own, lan, qr}: the invitation links (GET /api/server)
  };
}

function forgetView(v) {
  Object.assign(v, newView(), { hover: v.hover, invite: v.invite });
}

/** Entering another room than the one we were in forgets how this one's game was shown. */
function forgetIfFresh(v, { fresh }) {
  if (fresh) forgetView(v);
}

function unselect(v) {
  v.selected = null;
}

export const viewReducers = {
  'got/state'(v, { state: s, prev, newGame, takeback }, app) {
    if (newGame) v.overlayClosed = false;
    if (s.status !== 'finished') v.overlayClosed = v.overlayClosed && !!prev && prev.status === s.status;
    // Keep a selection only while it still leads somewhere.
    if (v.selected && !myLegal(app).some((a) => same(a.from, v.selected))) v.selected = null;
    if (!prev || s.version !== prev.version) v.selected = sequencePiece(app) ?? v.selected;
    if (takeback) {
      v.premove = null;
      v.selected = null;
    }
  },
  'want/select'(v, { square }) {
    v.selected = square;
  },
  'want/hover'(v, { square }) {
    v.hover = square;
  },
  'want/flip'(v) {
    v.userFlip = !v.userFlip;
  },
  /** "Turn the board with the turn" set: it says how the board stands, whatever Flip did before. */
  'want/turn_board'(v) {
    v.userFlip = false;
  },
  'want/premove'(v, { premove }) {
    v.premove = premove;
  },
  'sent/act': unselect,
  'got/error'(v, { req }) {
    if (req?.kind === 'act') v.selected = null;
  },
  'got/replaced'(v) {
    v.selected = null;
    v.premove = null;
  },
  'got/invite'(v, { invite }) {
    v.invite = invite;
  },
  'want/close_overlay'(v) {
    v.overlayClosed = true;
  },
  'want/replay'(v, { replay }) {
    v.replay = replay;
    v.selected = null;
  },
  'want/replay_step'(v, { version }) {
    v.replay = { ...v.replay, version };
  },
  /** After a finished game's replay the result card stays away (the status line still says it). */
  'want/close_replay'(v, _action, app) {
    v.replay = null;
    if (app.state?.status === 'finished') v.overlayClosed = true;
  },
  'got/joined': forgetIfFresh,
  'want/enter': forgetIfFresh,
  'want/leave': forgetView,
  'want/create': forgetView,
};
