// The latest state: taking it in (store/game.js keeps it, its move list and its positions), what
// the page does with it (the board, a premove, a takeback's words, sounds), and the history
// behind it when joining a game under way.

import { $ } from './ui.js';
import { movesFromRecord, parsePositions } from './replay.js';
import { app, batch, dispatch } from './store/store.js';
import { normRoom } from './store/saved.js';
import { stateAction } from './store/game.js';
import { atOneScreen, board, clearHint, flipped } from './context.js';
import { screen, showScreen } from './screen.js';
import { apiFetch } from './net.js';
import { playPremove } from './premove.js';
import { soundOfState } from './sounds.js';
import { afterTakeback } from './takeback.js';

export function onState(s) {
  // A state still on its way when we left (or of a room we left for another) is old news.
  if (!app.room || (s.room && normRoom(s.room) !== app.room)) return;
  const prev = app.state;
  const action = stateAction(prev, s);
  if (!action) return;
  if (action.newGame || (prev && (s.version !== prev.version || s.status !== prev.status))) clearHint();
  batch(() => {
    dispatch(action);
    document.body.dataset.variant = s.variant ?? '';
    if (!app.replay) {
      const geometryChanged = board.setState(s);
      board.setFlipped(flipped(), atOneScreen()); // at one screen it may turn with the turn
      if (geometryChanged || !prev) screen.layout();
    }
    afterTakeback(prev, s); // a takeback's words, and its last turn not played again
    playPremove(); // a premove goes as soon as our turn comes
    showScreen('game');
  });
  soundOfState(prev, s);
  if (action.needHistory) loadHistory(s);
}

/** Joining a game under way: the move list comes from the game record (GET /api/games/{room}). */
let historySeq = 0; // only the latest loadHistory may set the move list
const HISTORY_RETRIES = 5;
async function loadHistory(s, attempt = 0) {
  const seq = ++historySeq;
  const game = app.gameNo;
  dispatch({ type: 'want/history' });
  try {
    const res = await apiFetch(`/api/games/${encodeURIComponent(s.room)}`, { cache: 'no-store' });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const rec = await res.json();
    if (seq !== historySeq || app.state?.room !== s.room || app.gameNo !== game || !Array.isArray(rec.actions)) return;
    const recVersion = rec.version ?? rec.actions[rec.actions.length - 1]?.version;
    const behind =
      (Number.isInteger(recVersion) && recVersion !== app.state.version) ||
      (Number.isInteger(rec.game) && rec.game !== game);
    if (behind) {
      // A move came while the record was on its way: ask again for one that has it, rather than
      // leave the list without its beginning for good.
      if (attempt < HISTORY_RETRIES) {
        setTimeout(
          () => {
            if (seq === historySeq && app.state?.room === s.room && app.gameNo === game)
              loadHistory(app.state, attempt + 1);
          },
          200 * (attempt + 1),
        );
      }
      return;
    }
    batch(() => {
      // A server that puts the positions in the record gives the replay what this tab missed.
      if (!Number.isInteger(rec.game) || rec.game === app.gameNo)
        dispatch({ type: 'got/positions', game: app.gameNo, positions: parsePositions(rec, rec.game) });
      dispatch({ type: 'got/history', moves: movesFromRecord(rec) });
    });
  } catch {
    if (app.state?.room === s.room) dispatch({ type: 'got/no_history' });
  }
}

/** What leaving a game clears of the page beyond the store: the chat, the replay bar, the board's
 *  effects, the banner of a paused tab. */
export function clearGameScreen() {
  if (app.replaced) $('#banner').hidden = true;
  $('#chat-log').replaceChildren();
  $('#replay-bar').hidden = true;
  delete document.body.dataset.replay;
  board.effects = [];
}
