// The game slice: the latest state of the room's game and what this page learnt of its games (the
// move list, every position seen, the earlier games' move lists), the offers under way, and the
// players' presence.

import { snapshot } from '../replay.js';

const MAX_POSITIONS = 5000; // positions kept of one game

export function newGame() {
  return {
    state: null,
    pending: false, // an `act` is on its way; wait for the state
    gameNo: 1, // the room's game number (state.game; it goes up with each rematch)
    moves: [], // [{side, actions, exploded, promoted, versions}]
    movesPartial: false,
    games: new Map(), // game number -> Map(version -> snapshot): every position this tab has seen
    pastMoves: new Map(), // game number -> the move list of an earlier game of the room
    positionsTried: new Set(), // "room#game" keys whose positions were already asked of the server
    drawOffer: null,
    rematchAsked: false,
    rematchFrom: [], // the other sides that asked for a rematch
    finishedLive: false, // the game just ended in front of us (its result card waits for the move)
    leftSide: null, // the side that left this game (its last state.away), to say who left after a claim
    claiming: false, // our `claim` is on its way
    presence: null, // the room's players' connections and lag, from `presence`: {side: {connected, lag}}
  };
}

function forgetGame(g) {
  Object.assign(g, newGame());
}

/** Entering another room than the one we were in forgets this one's game. */
function forgetIfFresh(g, { fresh }) {
  if (fresh) forgetGame(g);
}

function notPending(g) {
  g.pending = false;
}

function drawOffered(g, { from }) {
  g.drawOffer = { from };
}

/**
 * What taking in `s` after `prev` means: null when it is old news (a late state), else whether it
 * begins a new game and whether the move list must come from the game record (joined mid-game,
 * or states missed).
 */
function stateNews(prev, s) {
  let newGameNow;
  if (prev && Number.isInteger(s.game) && Number.isInteger(prev.game)) {
    // The game number tells a rematch apart from a late state, whatever the versions say (a
    // rematch after a resignation at version 0, or one this tab missed while offline).
    if (s.game < prev.game || (s.game === prev.game && s.version < prev.version)) return null;
    newGameNow = s.game > prev.game;
  } else {
    if (prev && s.version < prev.version && s.status === prev.status && s.version !== 0) return null;
    newGameNow = !!prev && (s.version < prev.version || (s.version === 0 && prev.version !== 0));
  }
  const needHistory = s.version > 0 && (!prev || newGameNow || s.version > prev.version + 1);
  return { newGame: newGameNow, needHistory };
}

/** The action that takes in `s` after `prev` (got/state), or null when `s` is old news. */
export function stateAction(prev, s) {
  const news = stateNews(prev, s);
  return news && { type: 'got/state', state: s, prev, ...news, takeback: isTakeback(prev, s) };
}

/**
 * Whether `s` takes a turn back from `prev`: the next version of the same game, still being played,
 * where fewer turns are complete, or whose last turn is not one just played by the side that was
 * to move (a move always is).
 */
export function isTakeback(prev, s) {
  if (!prev || !s || s.version !== prev.version + 1) return false;
  if ((s.game ?? null) !== (prev.game ?? null) || prev.status !== 'playing' || s.status !== 'playing') return false;
  if (Number.isInteger(s.moves) && Number.isInteger(prev.moves) && s.moves < prev.moves) return true;
  return !s.last || s.last.side !== prev.turn;
}

/** Keeps every position this tab sees, by game, for the replay view. */
function remember(g, s) {
  if (!Number.isInteger(s.version) || !s.board) return;
  let m = g.games.get(g.gameNo);
  if (!m) g.games.set(g.gameNo, (m = new Map()));
  if (m.size < MAX_POSITIONS || m.has(s.version)) m.set(s.version, snapshot(s));
}

/** The turn `s` adds to the move list (or the step it adds to the turn under way). */
function recordMove(g, prev, s) {
  const last = s.last;
  if (!last || !Array.isArray(last.actions) || !last.actions.length) return;
  if (prev && s.version === prev.version) return;
  const entry = g.moves[g.moves.length - 1];
  const continues =
    prev &&
    entry &&
    prev.last &&
    prev.status === 'playing' &&
    prev.turn === prev.last.side &&
    last.side === prev.last.side &&
    entry.side === last.side &&
    s.version === prev.version + 1;
  if (continues) {
    const cumulative =
      last.actions.length > entry.actions.length &&
      entry.actions.every((a, i) => JSON.stringify(a) === JSON.stringify(last.actions[i]));
    entry.actions = cumulative ? last.actions.slice() : entry.actions.concat(last.actions);
    entry.exploded = [...entry.exploded, ...(last.exploded ?? [])];
    entry.promoted = [...entry.promoted, ...(last.promoted ?? [])];
    entry.versions.push(s.version);
    return;
  }
  if (prev && s.version !== prev.version + 1) g.movesPartial = true;
  g.moves.push({
    side: last.side,
    actions: last.actions.slice(),
    exploded: [...(last.exploded ?? [])],
    promoted: [...(last.promoted ?? [])],
    versions: [s.version],
  });
}

/**
 * A takeback: the undone turns leave the move list, and their positions leave this tab's replay
 * (the server's positions have the takeback's version in place of the position it went back to,
 * and so does this tab then).
 */
function undoTurns(g, s) {
  const moves = g.moves;
  const last = () => moves[moves.length - 1];
  // The restored position's last turn was taken for a new one (or added to the undone answer).
  while (moves.length && last().versions?.includes(s.version)) moves.pop();
  const undone = [];
  if (moves.length && last().side !== s.turn) undone.push(moves.pop()); // the answer
  if (moves.length && last().side === s.turn) undone.push(moves.pop()); // the proposer's turn
  const undoneVersions = undone.flatMap((m) => m.versions ?? []);
  let from = null; // positions from this version up to the takeback's are gone
  if (moves.length && last().versions?.length) from = Math.max(...last().versions);
  else if (!moves.length && !g.movesPartial) from = 0;
  else if (undoneVersions.length) from = Math.min(...undoneVersions) - 1;
  const known = g.games.get(g.gameNo);
  if (known && from !== null) for (const v of [...known.keys()]) if (v >= from && v < s.version) known.delete(v);
}

/** Explosions and crownings of each turn of `moves`, from the positions known after it (`games`:
 *  game number -> version -> snapshot). */
export function enrichMoves(games, moves, game) {
  const known = games.get(game);
  if (!known) return;
  for (const m of moves) {
    if (!m.versions?.length) continue;
    const snap = known.get(Math.max(...m.versions));
    if (!snap?.last || snap.last.side !== m.side) continue;
    m.exploded = [...(snap.last.exploded ?? [])];
    m.promoted = [...(snap.last.promoted ?? [])];
  }
}

export const gameReducers = {
  /** A state taken in; `prev` is the one before it, `newGame` and `needHistory` its stateNews. */
  'got/state'(g, { state: s, prev, newGame: fresh, needHistory, takeback }, app) {
    if (fresh) {
      g.pastMoves.set(g.gameNo, g.moves);
      g.moves = [];
      g.movesPartial = false;
      g.rematchAsked = false;
    }
    if (Number.isInteger(s.game)) g.gameNo = s.game;
    else if (fresh) g.gameNo += 1;
    remember(g, s);
    if (!needHistory) recordMove(g, fresh ? null : prev, s);
    g.finishedLive = !!prev && prev.status === 'playing' && s.status === 'finished';
    g.state = s;
    g.pending = false;
    // The server's extensions say who offered a draw and who asked for a rematch; without them an
    // offer lapses with the next move.
    if ('draw_offer' in s) g.drawOffer = s.draw_offer ? { from: s.draw_offer } : null;
    else if (!prev || s.version !== prev.version || s.status !== prev.status) g.drawOffer = null;
    // Who left: kept once the game ends (a claim's result names only the winner), forgotten when
    // they come back or a new game begins.
    if (s.away?.side) g.leftSide = s.away.side;
    else if (fresh || s.status !== 'finished') g.leftSide = null;
    g.claiming = false;
    if (Array.isArray(s.rematch)) {
      g.rematchAsked = s.rematch.includes(app.seat);
      g.rematchFrom = s.rematch.filter((x) => x !== app.seat);
    }
    if (takeback) undoTurns(g, s);
  },
  'want/history'(g) {
    g.movesPartial = true;
  },
  /** The move list from the game record, when joining a game under way. */
  'got/history'(g, { moves }) {
    enrichMoves(g.games, moves, g.gameNo);
    // The latest turn keeps what the live state says about it (explosions, promotions).
    const cur = g.state;
    const lastEntry = moves[moves.length - 1];
    if (cur?.last && lastEntry && lastEntry.side === cur.last.side) {
      lastEntry.exploded = [...(cur.last.exploded ?? [])];
      lastEntry.promoted = [...(cur.last.promoted ?? [])];
    }
    g.moves = moves;
    g.movesPartial = false;
  },
  /** No record to be had: the latest turn at least. */
  'got/no_history'(g) {
    if (g.state?.last && !g.moves.length) recordMove(g, null, g.state);
  },
  /** Positions the server sent (never replacing one this tab saw live). */
  'got/positions'(g, { game, positions }) {
    if (!positions) return;
    let m = g.games.get(game);
    if (!m) g.games.set(game, (m = new Map()));
    for (const [v, snap] of positions) if (!m.has(v)) m.set(v, snap);
    if (game === g.gameNo) enrichMoves(g.games, g.moves, game);
  },
  'sent/positions'(g, { key }) {
    g.positionsTried.add(key);
  },
  'sent/act'(g) {
    g.pending = true;
  },
  'net/down': notPending,
  'got/replaced': notPending,
  'got/error'(g, { req }) {
    if (req?.kind === 'act') g.pending = false;
    if (req?.kind === 'rematch') g.rematchAsked = false;
    if (req?.kind === 'claim') g.claiming = false;
  },
  'sent/rematch'(g) {
    g.rematchAsked = true;
  },
  'sent/draw_offer': drawOffered,
  'got/draw_offer': drawOffered,
  'sent/draw_answer'(g) {
    g.drawOffer = null;
  },
  'got/presence'(g, { players }) {
    g.presence = players;
  },
  'sent/claim'(g) {
    g.claiming = true;
  },
  'view/result_shown'(g) {
    g.finishedLive = false;
  },
  'got/joined': forgetIfFresh,
  'want/enter': forgetIfFresh,
  'want/leave': forgetGame,
  'want/create': forgetGame,
};
