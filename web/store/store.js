// The client's state, in three slices: the session (the server, the room and the seat), the game
// (the latest state and everything learnt of the room's games) and the view (what this page shows
// of it: the selection, the premove, the replay). Nothing changes them but `dispatch` of an action,
// a message the server sent (got/…), a request this page sent (sent/…), a user's intent (want/…)
// or the connection's news (net/…); the slices' reducers (session.js, game.js, view.js) apply it.
// The page's views read `app`, a read-only view of the three, and subscribe to redraw.

import { sessionReducers, newSession } from './session.js';
import { gameReducers, newGame } from './game.js';
import { newView, viewReducers } from './view.js';

const slices = { session: newSession(), game: newGame(), view: newView() };
const tables = [
  [slices.session, sessionReducers],
  [slices.game, gameReducers],
  [slices.view, viewReducers],
];

function sliceOf(key) {
  for (const s of [slices.session, slices.game, slices.view]) if (Object.hasOwn(s, key)) return s;
  return null;
}

function readOnly(key) {
  throw new TypeError(`The client's state is changed by dispatch, not by writing app.${String(key)}`);
}

/** The three slices as one object to read: `app.state`, `app.seat`, `app.selected`. */
export const app = new Proxy(
  {},
  {
    get: (_, key) => sliceOf(key)?.[key],
    has: (_, key) => sliceOf(key) !== null,
    ownKeys: () => [...Object.keys(slices.session), ...Object.keys(slices.game), ...Object.keys(slices.view)],
    getOwnPropertyDescriptor: (_, key) => {
      const s = sliceOf(key);
      return s ? { value: s[key], writable: false, enumerable: true, configurable: true } : undefined;
    },
    set: (_, key) => readOnly(key),
    deleteProperty: (_, key) => readOnly(key),
    defineProperty: (_, key) => readOnly(key),
  },
);

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
