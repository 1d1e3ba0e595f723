// Past positions of a game, for the replay view. The page never works a position out by itself:
// every position shown in a replay is one the server sent, either live (each `state` this tab saw)
// or from the server's list of positions (GET /api/games/{room}/positions). Also the game record
// and download links (the server writes every text record: PDN, and Kaboom's text).
import { apiFetch } from './net.js';

/** What a replay needs of a `state` (or of one entry of the positions list). */
export function snapshot(s) {
  const snap = {
    version: s.version,
    turn: s.turn ?? null,
    status: s.status ?? null,
    board: s.board,
    last: s.last ?? null,
    result: s.result ?? null,
    mid_turn: !!s.mid_turn,
    jumper: s.jumper ?? null,
  };
  if (s.bombs) snap.bombs = s.bombs;
  if (s.connect) snap.connect = s.connect;
  if (s.players) snap.players = s.players;
  return snap;
}

/**
 * The positions of one game, from whatever the server sent: a list of states, or an object holding
 * one under `positions` or `states`. Returns null when the answer is of another game (a server that
 * does not know `?game=N` answers with the current game) or holds no usable positions.
 */
export function parsePositions(data, game) {
  if (!data) return null;
  const list = Array.isArray(data) ? data : (data.positions ?? data.states);
  if (!Array.isArray(list)) return null;
  if (!Array.isArray(data) && Number.isInteger(data.game) && Number.isInteger(game) && data.game !== game) return null;
  const out = new Map();
  for (const p of list) {
    if (!p || !Number.isInteger(p.version) || !p.board || !Array.isArray(p.board.pieces)) continue;
    out.set(p.version, snapshot(p));
  }
  return out.size ? out : null;
}

const gameQuery = (game) => (Number.isInteger(game) ? `?game=${game}` : '');

export function recordUrl(room, game) {
  return `/api/games/${encodeURIComponent(room)}${gameQuery(game)}`;
}

export function pdnUrl(room, game) {
  return `/api/games/${encodeURIComponent(room)}.pdn${gameQuery(game)}`;
}

export function positionsUrl(room, game) {
  return `/api/games/${encodeURIComponent(room)}/positions${gameQuery(game)}`;
}

/**
 * The record of one game of a room. For an earlier game of a rematch series (`game` below the
 * current one) the server must know `?game=N`; an answer about another game counts as none.
 */
export async function fetchRecord(room, game) {
  const res = await apiFetch(recordUrl(room, game), { cache: 'no-store' });
  if (!res.ok) return null;
  const rec = await res.json();
  if (Number.isInteger(game) && Number.isInteger(rec?.game) && rec.game !== game) return null;
  return rec;
}

/** The server's positions of a game, or null when it has none to give (an older server: 404). */
export async function fetchPositions(room, game) {
  try {
    const res = await apiFetch(positionsUrl(room, game), { cache: 'no-store' });
    if (!res.ok) return null;
    return parsePositions(await res.json(), game);
  } catch {
    return null;
  }
}

/** Turns from a record's actions: consecutive actions of one side are the hops of one turn. */
export function movesFromRecord(rec) {
  const moves = [];
  for (const item of rec?.actions ?? []) {
    const action = item.action ?? item;
    const side = item.side;
    const prev = moves[moves.length - 1];
    if (prev && prev.side === side && !prev.closed) prev.actions.push(action);
    else moves.push({ side, actions: [action], exploded: [], promoted: [], versions: [] });
    const entry = moves[moves.length - 1];
    if (Number.isInteger(item.version)) entry.versions.push(item.version);
    if (action.kind === 'end_turn') entry.closed = true;
  }
  return moves;
}

/** Saves text as a file through a temporary link. */
export function download(name, text, type = 'text/plain;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
