// The client's state, in slices: the session (the server, the room and the seat), the game (the
// latest state and everything learnt of the room's games), the view (what this page shows of it:
// the selection, the premove, the replay), the players' (who this browser plays as, the pools) and
// the analysis board's and the puzzles'. Nothing changes them but `dispatch` of an action: a message the server
// sent (got/…), a request this page sent (sent/…), a user's intent (want/…, and analysis/… on the
// analysis board) or the connection's news (net/…); the slices' reducers (session.js, game.js,
// view.js, players.js, analysis.js, puzzle.js) apply it. The page reads `app`, a read-only view of all but the
// analysis board's, and `analysis`, of that one; its views subscribe to redraw.

import { sessionReducers, newSession } from './session.js';
import { gameReducers, newGame } from './game.js';
import { newView, viewReducers } from './view.js';
import { analysisReducers, newAnalysis } from './analysis.js';
import { newPlayers, playersReducers } from './players.js';
import { newPuzzle, puzzleReducers } from './puzzle.js';

const slices = {
  session: newSession(),
  game: newGame(),
  view: newView(),
  analysis: newAnalysis(),
  players: newPlayers(),
  puzzle: newPuzzle(),
};
const tables = [
  [slices.session, sessionReducers],
  [slices.game, gameReducers],
  [slices.view, viewReducers],
  [slices.analysis, analysisReducers],
  [slices.players, playersReducers],
  [slices.puzzle, puzzleReducers],
];

/** `parts` (slices) as one object to read, whose every write throws. A slice keeps the keys it
 *  was made with (a reset assigns them anew), so each key's slice is looked up once. */
function readOnlyView(name, parts) {
  const home = new Map();
  for (const s of parts) for (const key of Object.keys(s)) home.set(key, s);
  const partOf = (key) => home.get(key) ?? null;
  const refuse = (key) => {
    throw new TypeError(`The client's state is changed by dispatch, not by writing ${name}.${String(key)}`);
  };
  return new Proxy(
    {},
    {
      get: (_, key) => partOf(key)?.[key],
      has: (_, key) => partOf(key) !== null,
      ownKeys: () => [...home.keys()],
      getOwnPropertyDescriptor: (_, key) => {
        const s = partOf(key);
        return s ? { value: s[key], writable: false, enumerable: true, configurable: true } : undefined;
      },
      set: (_, key) => refuse(key),
      deleteProperty: (_, key) => refuse(key),
      defineProperty: (_, key) => refuse(key),
    },
  );
}

/** The game's three slices and the players' as one object to read: `app.state`, `app.seat`,
 *  `app.selected`, `app.me`. */
export const app = readOnlyView('app', [slices.session, slices.game, slices.view, slices.players]);
/** The analysis board's slice, to read: `analysis.pos`, `analysis.mode`. */
export const analysis = readOnlyView('analysis', [slices.analysis]);
/** The puzzles' slice, to read: `puzzle.puzzle`, `puzzle.pos`, `puzzle.mode`. */
export const puzzle = readOnlyView('puzzle', [slices.puzzle]);

const subscribers = [];
let depth = 0; // dispatches and batches under way: subscribers hear of them when the outermost ends
let heard = []; // the actions applied since the subscribers last heard
let telling = false;

/** Calls `fn(actions)` after every change, with the actions applied since the last call. */
export function subscribe(fn) {
  subscribers.push(fn);
}

/** Applies `action` ({type, ...}) to the slices whose reducers take its type. */
export function dispatch(action) {
  let taken = false;
  depth++;
  try {
    for (const [slice, reducers] of tables) {
      const reduce = reducers[action.type];
      if (reduce) {
        reduce(slice, action, app);
        taken = true;
      }
    }
  } finally {
    depth--;
  }
  if (!taken) throw new Error(`No reducer takes the action '${action.type}'`);
  heard.push(action);
  if (depth === 0) tell();
}

/** Runs `fn` (dispatches and the effects that go with them) and lets the subscribers hear once,
 *  at its end: a state taken in is drawn once, after the board has it. */
export function batch(fn) {
  depth++;
  try {
    return fn();
  } finally {
    depth--;
    if (depth === 0) tell();
  }
}

function tell() {
  if (telling) return; // an action dispatched while drawing is heard in the loop below
  telling = true;
  try {
    while (heard.length) {
      const actions = heard;
      heard = [];
      for (const fn of subscribers) fn(actions);
    }
  } finally {
    telling = false;
  }
}
