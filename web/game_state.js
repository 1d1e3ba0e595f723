// The latest state: taking it in, the move list it adds to, and the history behind it.

import { $ } from './ui.js';
import { movesFromRecord, parsePositions, snapshot } from './replay.js';
import { app, normRoom } from './state.js';
import { atOneScreen, board, clearHint, flipped, myLegal, same } from './context.js';
import { screen, showScreen } from './screen.js';
import { enrichMoves, mergePositions } from './game_positions.js';
import { renderMoves } from './move_list.js';
import { apiFetch } from './net.js';
import { playPremove } from './premove.js';
import { soundOfState } from './sounds.js';
import { afterTakeback } from './takeback.js';

export function onState(s) {
  // A state still on its way when we left (or of a room we left for another) is old news.
  if (!app.room || (s.room && normRoom(s.room) !== app.room)) return;
  const prev = app.state;
  let newGame;
  if (prev && Number.isInteger(s.game) && Number.isInteger(prev.game)) {
    // The game number tells a rematch apart from a late state, whatever the versions say (a
    // rematch after a resignation at version 0, or one this tab missed while offline).
    if (s.game < prev.game || (s.game === prev.game && s.version < prev.version)) return;
    newGame = s.game > prev.game;
  } else {
    if (prev && s.version < prev.version && s.status === prev.status && s.version !== 0) return;
    newGame = !!prev && (s.version < prev.version || (s.version === 0 && prev.version !== 0));
  }
  if (newGame) {
    app.pastMoves.set(app.gameNo, app.moves);
    app.moves = [];
    app.movesPartial = false;
    app.rematchAsked = false;
    app.overlayClosed = false;
  }
  if (Number.isInteger(s.game)) app.gameNo = s.game;
  else if (newGame) app.gameNo += 1;
  remember(s);
  if (newGame || (prev && (s.version !== prev.version || s.status !== prev.status))) clearHint();
  if (s.status !== 'waiting' || newGame) app.aiRequested = null;
  const needHistory = s.version > 0 && (!prev || newGame || s.version > prev.version + 1);
  if (!needHistory) recordMove(newGame ? null : prev, s);
  app.finishedLive = !!prev && prev.status === 'playing' && s.status === 'finished';
  app.state = s;
  app.room = s.room ?? app.room;
  document.body.dataset.variant = s.variant ?? '';
  app.pending = false;
  // The server's extensions say who offered a draw and who asked for a rematch; without them an
  // offer lapses with the next move.
  if ('draw_offer' in s) app.drawOffer = s.draw_offer ? { from: s.draw_offer } : null;
  else if (!prev || s.version !== prev.version || s.status !== prev.status) app.drawOffer = null;
  // Who left: kept once the game ends (a claim's result names only the winner), forgotten when
  // they come back or a new game begins.
  if (s.away?.side) app.leftSide = s.away.side;
  else if (newGame || s.status !== 'finished') app.leftSide = null;
  app.claiming = false;
  if (Array.isArray(s.rematch)) {
    app.rematchAsked = s.rematch.includes(app.seat);
    app.rematchFrom = s.rematch.filter((x) => x !== app.seat);
  }
  if (s.status !== 'finished') app.overlayClosed = app.overlayClosed && !!prev && prev.status === s.status;
  // Keep a selection only while it still leads somewhere.
  if (app.selected && !myLegal().some((a) => same(a.from, app.selected))) app.selected = null;
  if (!prev || s.version !== prev.version) app.selected = sequencePiece() ?? app.selected;
  if (!app.replay) {
    const geometryChanged = board.setState(s);
    board.setFlipped(flipped(), atOneScreen()); // at one screen it may turn with the turn
    if (geometryChanged || !prev) screen.layout();
  }
  afterTakeback(prev, s); // a takeback undoes turns: the move list forgets them, a premove goes
  playPremove(); // a premove goes as soon as our turn comes
  showScreen('game');
  screen.render();
  soundOfState(prev, s);
  if (needHistory) loadHistory(s);
}

/** Keeps every position this tab sees, by game, for the replay view. */
function remember(s) {
  if (!Number.isInteger(s.version) || !s.board) return;
  let m = app.games.get(app.gameNo);
  if (!m) app.games.set(app.gameNo, (m = new Map()));
  if (m.size < 5000 || m.has(s.version)) m.set(s.version, snapshot(s));
}

/** Joining a game under way: the move list comes from the game record (GET /api/games/{room}). */
let historySeq = 0; // only the latest loadHistory may set the move list
const HISTORY_RETRIES = 5;
async function loadHistory(s, attempt = 0) {
  const seq = ++historySeq;
  const game = app.gameNo;
  app.movesPartial = true;
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
    // A server that puts the positions in the record gives the replay what this tab missed.
    if (!Number.isInteger(rec.game) || rec.game === app.gameNo)
      mergePositions(app.gameNo, parsePositions(rec, rec.game));
    const moves = movesFromRecord(rec);
    enrichMoves(moves, app.gameNo);
    // The latest turn keeps what the live state says about it (explosions, promotions).
    const cur = app.state;
    const lastEntry = moves[moves.length - 1];
    if (cur.last && lastEntry && lastEntry.side === cur.last.side) {
      lastEntry.exploded = [...(cur.last.exploded ?? [])];
      lastEntry.promoted = [...(cur.last.promoted ?? [])];
    }
    app.moves = moves;
    app.movesPartial = false;
    renderMoves();
  } catch {
    if (app.state?.room === s.room && app.state.last && !app.moves.length) {
      recordMove(null, app.state);
      renderMoves();
    }
  }
}

/** The piece that must or may go on capturing: the only mover while a sequence is under way. */
export function sequencePiece() {
  const s = app.state;
  const legal = myLegal();
  if (!legal.length) return null;
  const midTurn = legal.some((a) => a.kind === 'end_turn') || (s.last && s.last.side === s.turn);
  if (!midTurn) return null;
  const froms = legal.filter((a) => a.from);
  if (froms.length && froms.every((a) => same(a.from, froms[0].from))) return froms[0].from;
  return null;
}

function recordMove(prev, s) {
  const last = s.last;
  if (!last || !Array.isArray(last.actions) || !last.actions.length) return;
  if (prev && s.version === prev.version) return;
  const entry = app.moves[app.moves.length - 1];
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
  if (prev && s.version !== prev.version + 1) app.movesPartial = true;
  app.moves.push({
    side: last.side,
    actions: last.actions.slice(),
    exploded: [...(last.exploded ?? [])],
    promoted: [...(last.promoted ?? [])],
    versions: [s.version],
  });
}

export function resetGameView() {
  if (app.replaced) {
    app.replaced = false;
    $('#banner').hidden = true;
  }
  app.state = null;
  app.seat = null;
  app.oneScreen = false;
  app.token = null;
  app.selected = null;
  app.premove = null;
  app.pending = false;
  app.userFlip = false;
  app.moves = [];
  app.movesPartial = false;
  app.drawOffer = null;
  app.presence = null;
  app.leftSide = null;
  app.claiming = false;
  app.rematchAsked = false;
  app.overlayClosed = false;
  app.aiRequested = null;
  app.gameNo = 1;
  app.games = new Map();
  app.replay = null;
  app.positionsTried = new Set();
  app.pastMoves = new Map();
  $('#chat-log').replaceChildren();
  $('#replay-bar').hidden = true;
  delete document.body.dataset.replay;
  board.effects = [];
}
