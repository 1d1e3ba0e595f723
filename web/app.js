// The wiring: routes (start screen, /r/{room}), the connection, the latest state, and what a click
// means. Every move sent is an object taken unchanged from the server's `legal` list; the page never
// decides a rule.

import { Net } from './net.js';
import { invitation, qrImage } from './qr.js';
import { BoardView } from './board.js';
import {
  $, h, toast, confirmDialog, copyText, sideChip, sideName, variantName, variantBlurb, humanize,
  resultText, turnText, icon, DEFAULT_SIDES, aiLevels, aiName,
} from './ui.js';
import {
  snapshot, parsePositions, fetchPositions, fetchRecord, movesFromRecord, recordUrl, pdnUrl, kaboomText, download,
} from './replay.js';
import { app, store, normRoom, decodeRoom } from './state.js';

const canvas = $('#board');
const board = new BoardView(canvas);
const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
const net = new Net(wsUrl, { message: onMessage, open: onOpen, down: onDown });

// Tests and the curious can look at the client's view of things.
window.bombcheckers = { app, board, net, receive: (msg) => onMessage(msg) };

// ---- small helpers ----------------------------------------------------------------------------

const same = (a, b) => !!a && !!b && a[0] === b[0] && a[1] === b[1];

function sidesOf(variant) {
  const v = app.variants.find((x) => x.id === variant);
  const sides = v?.sides?.map((s) => (typeof s === 'string' ? s : s.id ?? s.name));
  return sides?.length === 2 ? sides : DEFAULT_SIDES[variant] ?? ['fire', 'water'];
}

function isPlayer() {
  const s = app.state;
  return !!s && !!app.seat && sidesOf(s.variant).includes(app.seat);
}

function myLegal() {
  const s = app.state;
  if (!s || app.replay || app.pending || app.replaced || !isPlayer() || s.status !== 'playing' || s.turn !== app.seat) return [];
  return Array.isArray(s.legal) ? s.legal : [];
}

function baseFlipped() {
  const s = app.state;
  if (!s || s.variant === 'kaboom') return false;
  return isPlayer() && app.seat === sidesOf(s.variant)[1];
}

function flipped() {
  return app.state?.variant !== 'kaboom' && baseFlipped() !== app.userFlip;
}

function pieceAt(sq) {
  return app.state?.board?.pieces?.find((p) => same(p.at, sq)) ?? null;
}

let hintTimer = 0;
function hint(text) {
  const el = $('#hint');
  el.textContent = text;
  el.classList.add('show');
  clearTimeout(hintTimer);
  hintTimer = setTimeout(() => el.classList.remove('show'), 2600);
}

/** A hint is about the position it was given for: a new position (or the end) clears it. */
function clearHint() {
  const el = $('#hint');
  clearTimeout(hintTimer);
  el.classList.remove('show');
  el.textContent = '';
}

const MAX_REQUESTS = 100;

function send(msg, meta) {
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

// ---- connection -------------------------------------------------------------------------------

function setConn(online, text) {
  const el = $('#conn');
  el.classList.toggle('online', online);
  el.querySelector('.conn-text').textContent = text;
}

/** The banner over the page: a spinner while something is under way, or a button to act on it. */
function showBanner(text, { spinner = true, action = null, onAction = null } = {}) {
  $('#banner-text').textContent = text;
  $('#banner-spinner').hidden = !spinner;
  const btn = $('#banner-action');
  btn.hidden = !action;
  btn.textContent = action ?? '';
  btn.onclick = onAction;
  $('#banner').hidden = false;
}

function showReplaced() {
  showBanner('This game is open in another tab or window; this tab is paused.', {
    spinner: false, action: 'Play here', onAction: playHere,
  });
}

/** Takes the seat back from the other tab (which is paused in turn). */
function playHere() {
  if (!app.replaced || !app.room) return;
  app.joinReq = { room: app.room, seat: app.seat, name: store.name || 'Guest', token: app.token };
  $('#banner').hidden = true;
  if (net.connected) sendJoin();
}

function onOpen() {
  app.everConnected = true;
  setConn(true, 'Online');
  if (app.replaced) showReplaced();
  else $('#banner').hidden = true;
  if (app.joinReq) sendJoin();
  refreshRooms();
}

function onDown(retryMs) {
  setConn(false, 'Offline');
  app.pending = false;
  app.requests.clear(); // nothing sent on the old socket will be answered
  if (app.everConnected || app.joinReq) showBanner(`Connection lost. Reconnecting in ${Math.ceil(retryMs / 1000)} s…`);
  renderGame();
}

function sendJoin() {
  const r = app.joinReq;
  const msg = { type: 'join', room: r.room, seat: r.seat, name: r.name || store.name || 'Guest' };
  if (r.token) msg.token = r.token;
  send(msg, { kind: 'join', ...r });
}

// Messages about the room we are in; after leaving, late ones are dropped.
const ROOM_NEWS = new Set(['chat', 'draw_offer', 'rematch_offer', 'draw_declined']);

function onMessage(msg) {
  if (ROOM_NEWS.has(msg.type) && !app.room) return;
  switch (msg.type) {
    case 'welcome': return onWelcome(msg);
    case 'joined': return onJoined(msg);
    case 'state': return onState(msg);
    case 'chat': return onChat(msg);
    case 'draw_offer': return onDrawOffer(msg);
    case 'error': return onError(msg);
    case 'notice': return onNotice(msg);
    case 'ok':
      app.requests.delete(msg.id); // the request went through; its state or chat follows
      return undefined;
    case 'rematch_offer':
      if (msg.from !== app.seat) toast(`${sideName(msg.from)} would like a rematch.`, 'info');
      return undefined;
    case 'draw_declined':
      if (msg.from !== app.seat) toast(`${sideName(msg.from)} declined the draw.`, 'info');
      return undefined;
    default: return undefined; // unknown messages are ignored (PROTOCOL.md)
  }
}

function onWelcome(msg) {
  app.welcome = msg;
  app.ai = aiLevels(msg);
  renderOpponentPicker();
  if (Array.isArray(msg.variants) && msg.variants.length) {
    const first = app.variants.length === 0;
    app.variants = msg.variants;
    if (first) renderVariantPicker();
  }
  const chatMax = msg.limits?.chat_max_chars;
  if (Number.isInteger(chatMax) && chatMax > 0) $('#chat-input').maxLength = chatMax;
  const nameMax = msg.limits?.name_max_chars;
  if (Number.isInteger(nameMax) && nameMax > 0) {
    for (const el of [$('#create-name'), $('#join-name')]) el.maxLength = nameMax;
  }
}

function onJoined(msg) {
  const req = app.requests.get(msg.id);
  app.requests.delete(msg.id);
  const room = normRoom(msg.room ?? req?.room);
  if (!room) return;
  // Only the answer to our latest create, or news of the room we are in (or entering): anything
  // else is about a room we have left, and must not pull us back in.
  if (req?.kind === 'create' ? msg.id !== app.creating : room !== app.room) return;
  app.creating = null;
  if (room !== app.room) resetGameView();
  if (app.replaced) {
    app.replaced = false;
    $('#banner').hidden = true;
  }
  if (req?.kind === 'create') app.aiRequested = req.ai ?? null;
  app.room = room;
  app.seat = msg.seat ?? req?.seat ?? 'spectator';
  app.url = msg.url ?? `/r/${room}`;
  loadInvitation(room, app.url);
  const name = req?.name || store.name || 'Guest';
  if (msg.token && app.seat !== 'spectator') {
    app.token = msg.token;
    store.saveSeat(room, msg.token, app.seat);
  }
  app.joinReq = { room, seat: app.seat, name, token: app.seat !== 'spectator' ? app.token : null };
  if (req?.lostSeat) {
    toast(app.seat === 'spectator' ? 'Your seat could not be taken back; you are watching.' :
      `Your old seat was given up, so you have a new one: ${sideName(app.seat)}.`, 'info', 6000);
  }
  if (location.pathname === '/') history.pushState({ room }, '', app.url);
  else if (location.pathname !== app.url) history.replaceState({ room }, '', app.url);
  showScreen('game');
  updateDataAttrs();
  renderGame();
}

function onNotice(msg) {
  if (msg.code === 'replaced') {
    // Another tab or device took this seat with our token: do not fight it for the seat, and
    // offer nothing that would only be refused (this connection is out of the room).
    app.joinReq = null;
    app.replaced = true;
    app.pending = false;
    app.selected = null;
    showReplaced();
    renderGame();
    return;
  }
  if (msg.code === 'room_closed') {
    app.joinReq = null;
    toast(msg.message || 'This game was closed.', 'error', 6000);
    return;
  }
  if (msg.message) toast(msg.message, 'info');
}

function onError(msg) {
  const req = app.requests.get(msg.id);
  app.requests.delete(msg.id);
  const text = msg.message || 'Something went wrong.';
  if (req?.kind === 'join') {
    if (msg.code === 'unknown_room') {
      store.dropSeat(req.room);
      app.joinReq = null;
      leaveToStart();
      history.replaceState({}, '', '/');
      toast(`There is no game “${req.room}”. It may have ended long ago.`, 'error');
      return;
    }
    if (msg.code === 'bad_token') {
      // The seat is gone (given up before the game started, say). `any` takes a free seat if the
      // room still waits for players, and watches otherwise; onJoined says which.
      store.dropSeat(req.room);
      app.token = null;
      app.joinReq = { room: req.room, seat: 'any', name: req.name, token: null, lostSeat: true };
      sendJoin();
      return;
    }
    if (msg.code === 'seat_taken' && req.seat !== 'spectator') {
      app.token = null;
      app.joinReq = { room: req.room, seat: 'spectator', name: req.name, token: null };
      toast('Both seats are taken: you are watching.', 'info');
      sendJoin();
      return;
    }
  }
  if (req?.kind === 'act') {
    app.pending = false;
    app.selected = null;
    if (msg.code === 'stale_version') {
      hint('The game moved on; have another look.');
      renderGame();
      return;
    }
  }
  if (req?.kind === 'rematch') app.rematchAsked = false;
  toast(text, 'error');
  renderGame();
}

// ---- the state --------------------------------------------------------------------------------

function onState(s) {
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
    board.setFlipped(flipped());
    if (geometryChanged || !prev) layoutBoard();
  }
  showScreen('game');
  renderGame();
  if (needHistory) loadHistory(s);
}

/** Keeps every position this tab sees, by game, for the replay view. */
function remember(s) {
  if (!Number.isInteger(s.version) || !s.board) return;
  let m = app.games.get(app.gameNo);
  if (!m) app.games.set(app.gameNo, (m = new Map()));
  if (m.size < 5000 || m.has(s.version)) m.set(s.version, snapshot(s));
}

/** Adds positions the server sent (never replacing one this tab saw live). */
function mergePositions(game, positions) {
  if (!positions) return;
  let m = app.games.get(game);
  if (!m) app.games.set(game, (m = new Map()));
  for (const [v, snap] of positions) if (!m.has(v)) m.set(v, snap);
}

/** Joining a game under way: the move list comes from the game record (GET /api/games/{room}). */
let historySeq = 0; // only the latest loadHistory may set the move list
const HISTORY_RETRIES = 5;
async function loadHistory(s, attempt = 0) {
  const seq = ++historySeq;
  const game = app.gameNo;
  app.movesPartial = true;
  try {
    const res = await fetch(`/api/games/${encodeURIComponent(s.room)}`, { cache: 'no-store' });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const rec = await res.json();
    if (seq !== historySeq || app.state?.room !== s.room || app.gameNo !== game || !Array.isArray(rec.actions)) return;
    const recVersion = rec.version ?? rec.actions[rec.actions.length - 1]?.version;
    const behind = (Number.isInteger(recVersion) && recVersion !== app.state.version) ||
      (Number.isInteger(rec.game) && rec.game !== game);
    if (behind) {
      // A move came while the record was on its way: ask again for one that has it, rather than
      // leave the list without its beginning for good.
      if (attempt < HISTORY_RETRIES) {
        setTimeout(() => {
          if (seq === historySeq && app.state?.room === s.room && app.gameNo === game) loadHistory(app.state, attempt + 1);
        }, 200 * (attempt + 1));
      }
      return;
    }
    // A server that puts the positions in the record gives the replay what this tab missed.
    if (!Number.isInteger(rec.game) || rec.game === app.gameNo) mergePositions(app.gameNo, parsePositions(rec, rec.game));
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
function sequencePiece() {
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
  const continues = prev && entry && prev.last && prev.status === 'playing' &&
    prev.turn === prev.last.side && last.side === prev.last.side && entry.side === last.side &&
    s.version === prev.version + 1;
  if (continues) {
    const cumulative = last.actions.length > entry.actions.length &&
      entry.actions.every((a, i) => JSON.stringify(a) === JSON.stringify(last.actions[i]));
    entry.actions = cumulative ? last.actions.slice() : entry.actions.concat(last.actions);
    entry.exploded = [...entry.exploded, ...(last.exploded ?? [])];
    entry.promoted = [...entry.promoted, ...(last.promoted ?? [])];
    entry.versions.push(s.version);
    return;
  }
  if (prev && s.version !== prev.version + 1) app.movesPartial = true;
  app.moves.push({
    side: last.side, actions: last.actions.slice(), exploded: [...(last.exploded ?? [])],
    promoted: [...(last.promoted ?? [])], versions: [s.version],
  });
}

/** Explosions and crownings of each turn, from the positions known after it. */
function enrichMoves(moves, game) {
  const known = app.games.get(game);
  if (!known) return;
  for (const m of moves) {
    if (!m.versions?.length) continue;
    const snap = known.get(Math.max(...m.versions));
    if (!snap?.last || snap.last.side !== m.side) continue;
    m.exploded = [...(snap.last.exploded ?? [])];
    m.promoted = [...(snap.last.promoted ?? [])];
  }
}

function resetGameView() {
  if (app.replaced) {
    app.replaced = false;
    $('#banner').hidden = true;
  }
  app.state = null;
  app.seat = null;
  app.token = null;
  app.selected = null;
  app.pending = false;
  app.userFlip = false;
  app.moves = [];
  app.movesPartial = false;
  app.drawOffer = null;
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

// ---- rendering the game -----------------------------------------------------------------------

function updateDataAttrs() {
  const s = app.state;
  canvas.dataset.room = app.room ?? '';
  canvas.dataset.seat = app.seat ?? '';
  canvas.dataset.version = s ? String(s.version) : '';
  canvas.dataset.status = s?.status ?? '';
  canvas.dataset.turn = s?.turn ?? '';
  canvas.dataset.flipped = String(flipped());
  canvas.dataset.variant = s?.variant ?? '';
  canvas.dataset.cols = String(s?.board?.width ?? 8);
  canvas.dataset.rows = String(s?.board?.height ?? 8);
  canvas.dataset.selected = app.selected ? app.selected.join(',') : '';
  canvas.dataset.replayVersion = app.replay ? String(app.replay.version) : '';
  canvas.dataset.replayGame = app.replay ? String(app.replay.game) : '';
  canvas.dataset.game = s ? String(app.gameNo) : '';
}

/** What a game kept under rules revision 1 (begun before 2026-11-24) plays differently. */
const RULES_1_NOTE = {
  bomb: 'This game began under the earlier rules and keeps them: a bomb that steps onto the far row explodes instead of being crowned.',
  triple_king: 'This game began under the earlier rules and keeps them: after a capture a triple king may land beyond its own pieces.',
  other: 'This game began under the earlier rules and keeps them.',
};

function renderGame() {
  const s = app.state;
  updateDataAttrs();
  if (!s) {
    $('#status-line').textContent = app.room ? 'Joining…' : '';
    return;
  }
  const sides = sidesOf(s.variant);
  const legal = myLegal();
  const kaboom = s.variant === 'kaboom';

  // Board highlights.
  let targets = [];
  let movable = [];
  let detonatable = [];
  if (kaboom) {
    detonatable = legal.filter((a) => a.kind === 'detonate' && a.at).map((a) => a.at);
  } else {
    const froms = new Map();
    for (const a of legal) if (a.from) froms.set(a.from.join(','), a.from);
    movable = [...froms.values()];
    if (app.selected) {
      targets = legal.filter((a) => a.to && same(a.from, app.selected))
        .map((a) => ({ sq: a.to, capture: a.kind === 'jump' }));
    }
  }
  board.setFlipped(flipped());
  board.setUi({ selected: app.replay ? null : app.selected, targets, movable, detonatable, ghost: kaboomGhost(legal) });

  // Players: the side at the bottom of the screen goes below the board. In a replay the cards
  // follow the position shown (who was to move, bombs left), and that game's players.
  const view = viewState() ?? s;
  const bottom = flipped() ? sides[1] : sides[0];
  const top = bottom === sides[0] ? sides[1] : sides[0];
  renderPlayer($('#player-top'), top, view);
  renderPlayer($('#player-bottom'), bottom, view);

  // Status line.
  const line = $('#status-line');
  let text;
  let cls = '';
  const myTurn = isPlayer() && s.status === 'playing' && s.turn === app.seat;
  if (s.status === 'finished') {
    const opt = s.options ?? {};
    text = resultText(s.result, sides, s.connect ?? opt.connect ?? 4, !!opt.misere);
    cls = 'finished';
    if (s.result?.winner && isPlayer()) cls += s.result.winner === app.seat ? ' won' : ' lost';
  } else if (s.status === 'waiting') {
    text = 'Waiting for an opponent…';
    cls = 'waiting';
  } else if (myTurn) {
    text = legal.some((a) => a.kind === 'end_turn') ? 'Your turn: keep capturing, or end your turn.' : 'Your turn.';
    cls = `turn mine side-${s.turn}`;
  } else {
    text = `${sideName(s.turn)} to move.`;
    cls = `turn side-${s.turn}`;
  }
  if (app.pending) text = 'Sending…';
  if (app.replaced) {
    text = 'Paused: this game is open in another tab or window.';
    cls = 'waiting';
  }
  line.textContent = text;
  line.className = `status-line ${cls}`;
  document.title = `${myTurn ? '● Your turn · ' : ''}${variantName(s.variant, app.variants)} · ${s.room ?? ''}`;
  $('#room-code').textContent = s.room ?? app.room ?? '';
  $('#room-code').title = 'Room code';
  $('#variant-label').textContent = variantName(s.variant, app.variants);
  const n = s.spectators ?? 0;
  $('#spectators').replaceChildren(icon('eye'), ` ${n} watching`);
  // A game stored under earlier rules goes on under them (docs/RULES.md, Revisions).
  $('#rules-note').hidden = !(s.rules < 2);
  $('#rules-note').textContent = s.rules < 2 ? RULES_1_NOTE[s.variant] ?? RULES_1_NOTE.other : '';

  // Controls.
  const playing = s.status === 'playing';
  $('#end-turn').hidden = !legal.some((a) => a.kind === 'end_turn');
  $('#offer-draw').hidden = !(isPlayer() && playing);
  $('#resign').hidden = !(isPlayer() && playing);
  $('#rematch').hidden = !(isPlayer() && s.status === 'finished');
  $('#rematch').disabled = app.rematchAsked || app.replaced;
  // A paused tab (another one has the seat) shows the game but cannot act in it.
  for (const el of [$('#offer-draw'), $('#resign'), $('#draw-accept'), $('#draw-decline'), $('#chat-input'), $('#chat-form button')]) {
    el.disabled = app.replaced;
  }
  $('#rematch').textContent = app.rematchAsked ? 'Rematch asked…' : '↻ Rematch';
  $('#flip').hidden = kaboom;
  $('#replay').hidden = !(s.status === 'finished' && s.version > 0) || !!app.replay;
  $('#export-menu').hidden = !(s.version > 0 || s.status === 'finished' || app.gameNo > 1);

  // A draw offer from the other side.
  const offer = $('#draw-offer');
  if (app.drawOffer && playing) {
    const mine = app.drawOffer.from === app.seat;
    offer.hidden = false;
    $('#draw-offer-text').textContent = mine ? 'You offered a draw.' :
      `${sideName(app.drawOffer.from)} offers a draw.`;
    $('#draw-accept').hidden = mine || !isPlayer();
    $('#draw-decline').hidden = mine || !isPlayer();
  } else {
    offer.hidden = true;
  }

  renderOverlay(s, sides);
  renderDrops(s, legal);
  renderMoves();
  renderReplayBar();
  canvas.setAttribute('aria-label', app.replay ?
    `${variantName(s.variant, app.variants)} board, replay: ${replayLabel().join(' ')}` :
    `${variantName(s.variant, app.variants)} board. ${text}`);
}

/** Our side in a game of the room: the players change sides with every rematch. */
function seatIn(game) {
  if (!isPlayer() || (app.gameNo - game) % 2 === 0) return app.seat;
  const sides = sidesOf(app.state.variant);
  return sides[0] === app.seat ? sides[1] : sides[0];
}

function renderPlayer(el, side, s) {
  const p = s.players?.[side] ?? null;
  const you = isPlayer() && seatIn(app.replay?.game ?? app.gameNo) === side;
  const turn = s.status === 'playing' && s.turn === side;
  const kids = [sideChip(side), h('span.pname', {}, p ? p.name || sideName(side) : 'Waiting for a player…')];
  if (you) kids.push(h('span.tag', {}, 'you'));
  const ai = p && (p.ai ?? p.bot ?? p.computer);
  if (ai) kids.push(h('span.tag.ai', { title: Number.isInteger(ai) ? `Computer, level ${ai}` : 'Computer' }, 'computer'));
  kids.push(h('span.pside', {}, sideName(side)));
  if (s.variant === 'kaboom' && s.bombs && side in s.bombs) {
    // Screen readers get the count in words (an aria-label on a plain span is not read); the
    // icons and the "×N" are for the eye.
    const n = s.bombs[side];
    kids.push(h('span.bombs', { title: 'Bombs left to drop' },
      h('span', { 'aria-hidden': 'true' }, ...Array.from({ length: Math.min(5, n) }, () => icon('bomb')),
        n === 0 ? 'no bombs' : '', n > 5 ? `×${n}` : ''),
      h('span.sr-only', {}, n === 1 ? '1 bomb left' : `${n} bombs left`)));
  }
  if (p) {
    kids.push(h(`span.presence${p.connected ? '.on' : ''}`, { title: p.connected ? 'Connected' : 'Disconnected' },
      h('span', { 'aria-hidden': 'true' }, p.connected ? '' : 'away'),
      h('span.sr-only', {}, p.connected ? 'connected' : 'disconnected')));
  }
  if (turn) kids.push(h('span.to-move', {}, 'to move'));
  el.replaceChildren(...kids);
  el.className = `player side-${side}${turn ? ' active' : ''}${p ? '' : ' empty'}`;
}

let overlayKey = '';
function renderOverlay(s, sides) {
  const ov = $('#board-overlay');
  // Rebuilt only when what it says changes, so its entrance animation plays once.
  const k = JSON.stringify([s.room, s.status, s.result, app.seat, app.url, app.invite?.share, app.rematchAsked, app.rematchFrom,
    app.overlayClosed, !!app.replay, app.aiRequested, app.replaced]);
  if (k === overlayKey) return;
  overlayKey = k;
  if (app.replay) {
    ov.hidden = true;
    return;
  }
  const closeBtn = () => h('button.icon-btn.close', {
    type: 'button', 'aria-label': 'Close and look at the board', onclick: () => { app.overlayClosed = true; renderGame(); },
  }, '×');
  if (s.status === 'waiting' && isPlayer() && app.aiRequested && app.ai.advertised && !app.overlayClosed) {
    ov.replaceChildren(h('div.overlay-card', {},
      h('h2', {}, h('span.spinner', { 'aria-hidden': 'true' }), ' The computer is taking its seat…'),
      h('p.muted', {}, `${aiLevelName(app.aiRequested)} level.`)));
    ov.hidden = false;
    return;
  }
  if (s.status === 'waiting' && isPlayer() && !app.overlayClosed) {
    const link = shareLink();
    const input = h('input.link', { readonly: true, value: link, 'aria-label': 'Link to this game' });
    input.addEventListener('focus', () => input.select());
    // A phone on the same network joins by scanning; the image waits for the LAN address.
    const qr = app.invite?.room === s.room ? qrImage(link, { size: 168, alt: `QR code of ${link}` }) : null;
    if (qr) qr.id = 'invite-qr';
    ov.replaceChildren(h('div.overlay-card.invite', {},
      closeBtn(),
      h('h2', {}, 'Waiting for an opponent'),
      h('p', {}, app.aiRequested ?
        'This server has no computer opponent. Send this link to a friend instead: the game starts when they open it.' :
        'Send this link to a friend. The game starts when they open it.'),
      h('div.link-row', {}, input, h('button.btn.primary', { type: 'button', onclick: copyLink, 'aria-label': 'Copy the link' }, 'Copy')),
      qr ? h('figure.invite-qr', {}, qr, h('figcaption.muted.small', {}, 'On the same network? Scan it with a phone.')) : null,
      h('p.muted.small', {}, 'Room code ', h('strong', {}, s.room))));
    ov.hidden = false;
    return;
  }
  if (s.status === 'finished' && !app.overlayClosed) {
    const opt = s.options ?? {};
    const won = s.result?.winner && isPlayer() ? s.result.winner === app.seat : null;
    const title = !s.result?.winner ? 'Draw' : won === true ? 'You win!' : won === false ? 'You lose' : `${sideName(s.result.winner)} wins`;
    // Just finished in front of us: let the last move's animation play before covering the board.
    const live = app.finishedLive;
    app.finishedLive = false;
    ov.replaceChildren(h(`div.overlay-card.result${won === true ? '.won' : ''}${live ? '.delayed' : ''}`, {},
      closeBtn(),
      h('h2', {}, title),
      h('p', {}, resultText(s.result, sides, s.connect ?? opt.connect ?? 4, !!opt.misere)),
      app.rematchFrom?.length && !app.rematchAsked ? h('p.small', {}, `${sideName(app.rematchFrom[0])} would like a rematch.`) : null,
      h('div.overlay-buttons', {},
        s.version > 0 ? h('button.btn', { type: 'button', onclick: () => openReplay(0), 'aria-label': 'Replay this game' }, icon('play'), 'Replay') : null,
        isPlayer() ? h('button.btn.primary', { type: 'button', onclick: askRematch, disabled: app.rematchAsked || app.replaced }, app.rematchAsked ? 'Rematch asked…' : '↻ Rematch') : null)));
    ov.hidden = false;
    return;
  }
  ov.hidden = true;
}

function kaboomGhost(legal) {
  const s = app.state;
  if (!s || s.variant !== 'kaboom' || !app.hover) return null;
  const col = app.hover[0];
  if (!legal.some((a) => a.kind === 'drop' && a.column === col)) return null;
  const y = (s.board?.pieces ?? []).filter((p) => p.at[0] === col).length;
  if (y >= (s.board?.height ?? 6)) return null;
  if (pieceAt(app.hover)?.kind === 'bomb' && legal.some((a) => a.kind === 'detonate' && same(a.at, app.hover))) return null;
  return { sq: [col, y], piece: { at: [col, y], side: app.seat, kind: 'normal', rank: 'man' } };
}

function renderDrops(s, legal) {
  const drops = $('#drops');
  if (s.variant !== 'kaboom') {
    if (!drops.hidden) {
      drops.hidden = true;
      layoutBoard();
    }
    return;
  }
  const cols = s.board?.width ?? 7;
  const wasHidden = drops.hidden;
  drops.hidden = false;
  drops.style.gridTemplateColumns = `repeat(${cols}, 1fr)`;
  const buttons = [];
  for (let c = 0; c < cols; c++) {
    const normal = legal.find((a) => a.kind === 'drop' && a.column === c && a.piece !== 'bomb');
    const bomb = legal.find((a) => a.kind === 'drop' && a.column === c && a.piece === 'bomb');
    buttons.push(h('div.drop-col', {},
      h(`button.drop.side-${app.seat}`, {
        type: 'button', disabled: !normal, 'aria-label': `Drop a piece in column ${c + 1}`, title: `Drop in column ${c + 1}`,
        dataset: { column: c, piece: 'normal' }, onclick: () => normal && act(normal),
      }, '▼'),
      h('button.drop.bomb', {
        type: 'button', disabled: !bomb, 'aria-label': `Drop a bomb in column ${c + 1}`, title: `Drop a bomb in column ${c + 1}`,
        dataset: { column: c, piece: 'bomb' }, onclick: () => bomb && act(bomb),
      }, icon('bomb'))));
  }
  drops.replaceChildren(...buttons);
  if (wasHidden) layoutBoard();
}

/** The turns shown in the move list: the current game's, or those of the game being replayed. */
function shownMoves() {
  const r = app.replay;
  return r && r.game !== app.gameNo ? r.moves ?? [] : app.moves;
}

/** Brings an item of a scrolling list into view by scrolling that list alone: scrollIntoView would
 *  scroll the page too, and on a phone that moves the board away at every replay step. */
function scrollWithin(list, item) {
  const l = list.getBoundingClientRect();
  const i = item.getBoundingClientRect();
  if (i.top < l.top) list.scrollTop -= l.top - i.top;
  else if (i.bottom > l.bottom) list.scrollTop += Math.min(i.bottom - l.bottom, i.top - l.top);
}

let movesKey = '';
function renderMoves() {
  const list = $('#move-list');
  const r = app.replay;
  const moves = shownMoves();
  const current = r ? moveIndexOf(r.version, moves) : -1;
  const k = JSON.stringify([moves.map((m) => [m.side, m.actions.length, m.versions, m.exploded.length, m.promoted.length]),
    app.movesPartial, r?.game, current, app.gameNo]);
  if (k === movesKey && list.children.length) return;
  movesKey = k;
  const items = moves.map((m, i) => {
    const v = m.versions?.length ? Math.max(...m.versions) : null;
    const body = [h('span.num', {}, `${i + 1}.`), sideChip(m.side), h('span.mv', {}, turnText(m)),
      m.exploded.length ? icon('boom', 'explosion') : null, m.promoted.length ? icon('crown', 'crowned') : null];
    const cls = `li${i === current ? '.current' : ''}`;
    if (v === null) return h(cls, {}, ...body);
    return h(cls, { dataset: { version: v }, 'aria-current': i === current ? 'step' : null },
      h('button.move', {
        type: 'button', title: 'Show the board after this move', 'aria-label': `Move ${i + 1}, ${sideName(m.side)} ${turnText(m)}: show the board after it`,
        onclick: () => openReplay(v, r?.game ?? app.gameNo),
      }, ...body));
  });
  if (app.movesPartial && !(r && r.game !== app.gameNo)) items.unshift(h('li.muted', {}, 'Earlier moves not shown'));
  if (!items.length) items.push(h('li.muted', {}, 'No moves yet'));
  if (app.gameNo > 1 && !r) {
    // The earlier games of a rematch series, newest first.
    const earlier = [];
    for (let g = app.gameNo - 1; g >= Math.max(1, app.gameNo - 3); g--) {
      earlier.push(h('button.btn.small.ghost', { type: 'button', onclick: () => openReplay(0, g), 'aria-label': `Replay game ${g}` },
        icon('play'), `Game ${g}`));
    }
    items.push(h('li.earlier', {}, h('span.muted', {}, 'Replay'), ...earlier));
  }
  list.replaceChildren(...items);
  list.classList.toggle('replaying', !!r);
  const cur = list.querySelector('li.current');
  if (cur) scrollWithin(list, cur);
  else if (!r) list.scrollTop = list.scrollHeight;
}

// ---- replay -----------------------------------------------------------------------------------
// Only positions the server sent are shown: those this tab saw live, and the server's list of
// positions (GET /api/games/{room}/positions) for what it missed.

function positionsOf(game) {
  return app.games.get(game) ?? new Map();
}

function replayVersions(game) {
  return [...positionsOf(game).keys()].sort((a, b) => a - b);
}

/** Whether this tab has every position of a game (the current game: 0 .. its version). */
function haveAll(game) {
  const m = positionsOf(game);
  if (game !== app.gameNo) {
    const vs = replayVersions(game);
    const lastV = vs[vs.length - 1];
    return vs.length > 0 && vs.length === lastV + 1 && m.get(lastV).status === 'finished';
  }
  const top = app.state?.version ?? 0;
  for (let v = 0; v <= top; v++) if (!m.has(v)) return false;
  return true;
}

/** The state shown on the board: the live one, or the past position being replayed. */
function viewState() {
  const s = app.state;
  const r = app.replay;
  if (!s || !r) return s;
  const snap = positionsOf(r.game).get(r.version);
  if (!snap) return s;
  const players = r.game === app.gameNo ? s.players : snap.players ?? r.record?.players ?? s.players;
  const status = snap.status ?? (snap.result ? 'finished' : 'playing');
  return { ...s, ...snap, status, players, legal: [], draw_offer: null };
}

function moveIndexOf(version, moves = shownMoves()) {
  return moves.findIndex((m) => m.versions?.includes(version));
}

/** ["Move 3 of 12", "hop 2 of 3"] and the like, for the replay bar. */
function replayLabel() {
  const r = app.replay;
  if (!r) return [];
  if (r.version === 0) return ['Start position'];
  const moves = shownMoves();
  const i = moveIndexOf(r.version, moves);
  if (i < 0) return [`Position ${r.version}`];
  const m = moves[i];
  const parts = [`Move ${i + 1} of ${moves.length}`];
  const vs = m.versions ?? [];
  if (vs.length > 1) parts.push(`step ${vs.indexOf(r.version) + 1} of ${vs.length}`);
  return parts;
}

/** Asks the server for the positions of a game this tab has not seen whole (once per game). */
async function loadPositions(game) {
  const key = `${app.room}#${game}`;
  if (app.positionsTried.has(key)) return;
  app.positionsTried.add(key);
  const room = app.room;
  const q = Number.isInteger(app.state?.game) ? game : undefined;
  const positions = await fetchPositions(room, q);
  if (app.room !== room) return;
  mergePositions(game, positions);
  if (positions && game === app.gameNo) enrichMoves(app.moves, game);
}

/** Opens the replay at a version (the nearest position this tab has), of this game or an earlier one. */
async function openReplay(version, game = app.gameNo) {
  const s = app.state;
  if (!s || !app.room) return;
  const room = app.room;
  let record = app.replay?.game === game ? app.replay.record : null;
  let moves = app.replay?.game === game ? app.replay.moves : app.pastMoves.get(game) ?? null;
  if (!haveAll(game)) await loadPositions(game);
  if (game !== app.gameNo && !record) {
    try {
      record = await fetchRecord(room, game);
    } catch {
      record = null;
    }
    if (record) {
      mergePositions(game, parsePositions(record, game));
      if (!moves?.length) {
        moves = movesFromRecord(record);
        enrichMoves(moves, game);
      }
    }
  }
  if (app.room !== room || !app.state) return;
  const vs = replayVersions(game);
  if (!vs.length) {
    toast(game === app.gameNo ? 'The positions of this game are not available.' : record ?
      `This server does not send the positions of earlier games, so game ${game} cannot be replayed here. Its record is in the Export menu.` :
      `Game ${game} is not available on this server any more.`, 'error', 6000);
    renderGame();
    return;
  }
  // The nearest position at or before the one asked for, else the first one there is.
  const target = [...vs].reverse().find((v) => v <= version) ?? vs[0];
  if (vs[0] > 0 && target === vs[0] && version < vs[0]) {
    toast('Positions before this tab joined the game are not available from this server.', 'info', 5000);
  }
  const wasReplay = !!app.replay;
  app.replay = { game, version: target, moves, record };
  app.selected = null;
  document.body.dataset.replay = 'true';
  showReplayBoard();
  if (!wasReplay) requestAnimationFrame(layoutBoard);
  $('#replay-bar').hidden = false;
  renderGame();
}

function showReplayBoard() {
  const v = viewState();
  if (v && board.setState(v)) layoutBoard();
  board.setFlipped(flipped());
}

function replayGo(where) {
  const r = app.replay;
  if (!r) return;
  const vs = replayVersions(r.game);
  let i = vs.indexOf(r.version);
  if (where === 'first') i = 0;
  else if (where === 'last') i = vs.length - 1;
  else i = Math.max(0, Math.min(vs.length - 1, i + where));
  if (vs[i] === undefined || vs[i] === r.version) return;
  r.version = vs[i];
  showReplayBoard();
  renderGame();
}

function closeReplay() {
  if (!app.replay) return;
  app.replay = null;
  delete document.body.dataset.replay;
  $('#replay-bar').hidden = true;
  $('#replay-game').replaceChildren();
  if (app.state) {
    if (board.setState(app.state)) layoutBoard();
    board.setFlipped(flipped());
  }
  requestAnimationFrame(layoutBoard);
  overlayKey = '';
  // After a finished game's replay the result card stays away (the status line still says it).
  if (app.state?.status === 'finished') app.overlayClosed = true;
  renderGame();
}

function renderReplayBar() {
  const r = app.replay;
  const bar = $('#replay-bar');
  bar.hidden = !r;
  if (!r) return;
  const vs = replayVersions(r.game);
  const i = vs.indexOf(r.version);
  const snap = positionsOf(r.game).get(r.version);
  $('#replay-first').disabled = i <= 0;
  $('#replay-prev').disabled = i <= 0;
  $('#replay-next').disabled = i >= vs.length - 1;
  $('#replay-last').disabled = i >= vs.length - 1;
  const range = $('#replay-range');
  range.max = String(Math.max(0, vs.length - 1));
  range.value = String(Math.max(0, i));
  range.disabled = vs.length < 2;
  const [main, sub] = replayLabel();
  range.setAttribute('aria-valuetext', [main, sub].filter(Boolean).join(', '));
  $('#replay-pos').textContent = main ?? '';
  const detail = $('#replay-move');
  const s = app.state;
  const sides = sidesOf(s.variant);
  if (snap?.result && i === vs.length - 1) {
    const o = s.options ?? {};
    detail.replaceChildren(resultText(snap.result, sides, snap.connect ?? o.connect ?? 4, !!o.misere));
  } else if (snap?.last && r.version > 0) {
    detail.replaceChildren(sideChip(snap.last.side), ` ${sideName(snap.last.side)} ${turnText(snap.last)}`,
      snap.last.exploded?.length ? icon('boom', 'explosion') : '', snap.last.promoted?.length ? icon('crown', 'crowned') : '');
  } else {
    detail.replaceChildren(snap?.turn ? `${sideName(snap.turn)} to move` : '');
  }
  if (sub) detail.append(h('span.muted', {}, ` · ${sub}`));
  // Live (a game still going on) or Close (a finished one), and which game of the series.
  const running = r.game === app.gameNo && s.status !== 'finished';
  const live = $('#replay-live');
  live.replaceChildren(running ? h('span.live-dot', { 'aria-hidden': 'true' }) : '×', running ? ' Live' : ' Close');
  live.setAttribute('aria-label', running ? 'Back to the live game' : 'Close the replay');
  live.classList.toggle('primary', running && isPlayer() && s.status === 'playing' && s.turn === app.seat);
  const sel = $('#replay-game');
  sel.hidden = app.gameNo < 2;
  if (app.gameNo > 1 && sel.options.length !== app.gameNo) {
    sel.replaceChildren(...Array.from({ length: app.gameNo }, (_, k) =>
      h('option', { value: k + 1 }, k + 1 === app.gameNo ? `Game ${k + 1} (this one)` : `Game ${k + 1}`)));
  }
  sel.value = String(r.game);
}

$('#replay').addEventListener('click', () => openReplay(0));
$('#replay-first').addEventListener('click', () => replayGo('first'));
$('#replay-prev').addEventListener('click', () => replayGo(-1));
$('#replay-next').addEventListener('click', () => replayGo(1));
$('#replay-last').addEventListener('click', () => replayGo('last'));
$('#replay-live').addEventListener('click', closeReplay);
$('#replay-range').addEventListener('input', (e) => {
  const r = app.replay;
  if (!r) return;
  const v = replayVersions(r.game)[Number(e.target.value)];
  if (v === undefined || v === r.version) return;
  r.version = v;
  showReplayBoard();
  renderGame();
});
$('#replay-game').addEventListener('change', (e) => openReplay(0, Number(e.target.value)));

// ---- export -----------------------------------------------------------------------------------

const CHECKERS = new Set(['bomb', 'classic', 'triple_king']);

/** The game the Export menu is about: the one picked in it, else the one replayed, else this one. */
let exportPick = null;
function exportGame() {
  const g = exportPick ?? app.replay?.game ?? app.gameNo;
  return g >= 1 && g <= app.gameNo ? g : app.gameNo;
}

async function renderExportMenu() {
  const s = app.state;
  const list = $('#export-list');
  if (!s || !app.room) return;
  const room = app.room;
  const game = exportGame();
  // `?game=N` only for an earlier game; the record of the current game needs no query.
  const q = game !== app.gameNo ? game : undefined;
  const base = `bombcheckers-${room}-game${game}`;
  const items = [h('a.menu-item', {
    id: 'export-json', href: recordUrl(room, q), download: `${base}.json`, role: 'menuitem',
  }, h('strong', {}, 'Game record'), h('small', {}, 'JSON: variant, options, players, every action'))];
  if (app.gameNo > 1) {
    const sel = h('select', { id: 'export-game', 'aria-label': 'Which game to export' },
      ...Array.from({ length: app.gameNo }, (_, k) => h('option', { value: k + 1, selected: k + 1 === game },
        k + 1 === app.gameNo ? `Game ${k + 1} (this one)` : `Game ${k + 1}`)));
    sel.addEventListener('change', () => {
      exportPick = Number(sel.value);
      renderExportMenu();
    });
    items.unshift(h('label.menu-game', {}, h('span', {}, 'Game'), sel));
  }
  if (CHECKERS.has(s.variant)) {
    const pdn = h('a.menu-item', { id: 'export-pdn', href: pdnUrl(room, q), download: `${base}.pdn`, role: 'menuitem', 'aria-disabled': 'true' },
      h('strong', {}, 'PDN'), h('small', {}, 'Portable Draughts Notation, for checkers programs'));
    pdn.classList.add('checking');
    items.push(pdn);
    checkPdn(pdn);
  }
  if (s.variant === 'kaboom') {
    items.push(h('button.menu-item', { type: 'button', id: 'export-text', role: 'menuitem', onclick: () => exportKaboomText(room, game, q) },
      h('strong', {}, 'Text record'), h('small', {}, 'Plain text: players, options, every drop and detonation')));
  }
  list.replaceChildren(...items);
}

/** Offers the PDN only if this server makes one. */
async function checkPdn(link) {
  let ok = false;
  try {
    const res = await fetch(link.href, { method: 'HEAD', cache: 'no-store' });
    ok = res.ok;
  } catch {
    ok = false;
  }
  link.classList.remove('checking');
  if (ok) {
    link.removeAttribute('aria-disabled');
  } else {
    link.classList.add('unavailable');
    link.removeAttribute('href');
    link.querySelector('small').textContent = 'Not offered by this server';
  }
}

/** Kaboom's text record: the server's (GET /api/games/{room}.pdn serves it for Kaboom), else one
 *  written here from the JSON record. */
async function exportKaboomText(room, game, q) {
  try {
    let text = null;
    try {
      const res = await fetch(pdnUrl(room, q), { cache: 'no-store' });
      if (res.ok && /^text\/plain/.test(res.headers.get('content-type') ?? '')) text = await res.text();
    } catch {
      text = null;
    }
    if (text === null) {
      const rec = await fetchRecord(room, q);
      if (!rec) throw new Error('no record');
      text = kaboomText(rec, app.variants);
    }
    download(`kaboom-${room}-game${game}.txt`, text);
    $('#export-menu').open = false;
  } catch {
    toast('The game record could not be loaded.', 'error');
  }
}

$('#export-menu').addEventListener('toggle', () => {
  if ($('#export-menu').open) renderExportMenu();
  else exportPick = null;
});
document.addEventListener('click', (e) => {
  const menu = $('#export-menu');
  if (menu.open && !menu.contains(e.target)) menu.open = false;
});
$('#export-list').addEventListener('click', (e) => {
  const a = e.target.closest('a.menu-item');
  if (!a) return;
  if (!a.getAttribute('href')) {
    e.preventDefault();
    return;
  }
  setTimeout(() => { $('#export-menu').open = false; }, 0);
});

// ---- playing ----------------------------------------------------------------------------------

function act(action) {
  const s = app.state;
  if (!s) return;
  const id = send({ type: 'act', action, version: s.version }, { kind: 'act' });
  if (id === null) return;
  app.pending = true;
  app.selected = null;
  renderGame();
}

function endTurn() {
  const a = myLegal().find((x) => x.kind === 'end_turn');
  if (a) act(a);
}

function clickSquare(sq) {
  const s = app.state;
  if (!s || !sq) return;
  if (app.replay) {
    const running = app.replay.game === app.gameNo && s.status !== 'finished';
    hint(running ? 'This is an earlier position. Press Live to get back to the game.' :
      'Replay: step with ← and →, or the buttons below the board.');
    return;
  }
  if (app.replaced) {
    hint('This game is open in another tab. Press “Play here” to play in this one.');
    return;
  }
  if (!isPlayer()) {
    hint('You are watching this game.');
    return;
  }
  if (s.status === 'waiting') {
    hint('Waiting for an opponent to join.');
    return;
  }
  if (s.status !== 'playing') {
    hint('This game is over.');
    return;
  }
  if (app.pending) return;
  if (s.turn !== app.seat) {
    hint(`It is ${sideName(s.turn)}'s turn.`);
    board.flash(sq);
    return;
  }
  const legal = myLegal();
  if (s.variant === 'kaboom') {
    const det = legal.find((a) => a.kind === 'detonate' && same(a.at, sq));
    if (det) return act(det);
    const drop = legal.find((a) => a.kind === 'drop' && a.column === sq[0] && a.piece !== 'bomb');
    if (drop) return act(drop);
    hint('That column is full.');
    board.flash(sq);
    return;
  }
  if (app.selected) {
    const a = legal.find((x) => same(x.from, app.selected) && same(x.to, sq));
    if (a) return act(a);
  }
  const seq = sequencePiece();
  if (legal.some((a) => same(a.from, sq))) {
    app.selected = same(app.selected, sq) && !seq ? null : sq;
    renderGame();
    return;
  }
  board.flash(sq);
  const p = pieceAt(sq);
  if (seq) hint(legal.some((a) => a.kind === 'end_turn') ?
    'Keep capturing with the highlighted piece, or press Space to end your turn.' :
    'Keep capturing with the highlighted piece.');
  else if (p && p.side === app.seat) hint('That piece has no move right now.');
  else if (app.selected) hint('The selected piece cannot go there.');
  else hint('Pick one of your pieces that can move (ringed).');
  if (!seq && app.selected && !(p && p.side === app.seat)) {
    app.selected = null;
    renderGame();
  }
}

let downSq = null;
canvas.addEventListener('pointerdown', (e) => {
  if (e.button !== 0) return;
  downSq = board.squareAtClient(e.clientX, e.clientY);
  // Pressing on one of your movable pieces picks it up at once, so it can be dragged.
  if (downSq && !app.state?.variant?.startsWith('kaboom') && myLegal().some((a) => same(a.from, downSq)) &&
      !same(app.selected, downSq)) {
    app.selected = downSq;
    downSq = [...downSq, 'picked'];
    renderGame();
  }
});
canvas.addEventListener('pointerup', (e) => {
  if (e.button !== 0 || !downSq) return;
  const up = board.squareAtClient(e.clientX, e.clientY);
  const picked = downSq[2] === 'picked';
  const from = downSq.slice(0, 2);
  downSq = null;
  if (!up) return;
  if (picked && same(up, from)) return; // a plain click that selected the piece
  clickSquare(up);
});
canvas.addEventListener('pointercancel', () => {
  downSq = null;
});
canvas.addEventListener('pointermove', (e) => {
  const sq = board.squareAtClient(e.clientX, e.clientY);
  if (same(sq, app.hover)) return;
  app.hover = sq;
  const legal = myLegal();
  const clickable = sq && (legal.some((a) => same(a.from, sq) || (app.selected && same(a.from, app.selected) && same(a.to, sq))) ||
    legal.some((a) => (a.kind === 'detonate' && same(a.at, sq)) || (a.kind === 'drop' && a.column === sq[0])));
  canvas.style.cursor = clickable ? 'pointer' : 'default';
  board.setUi({ hover: sq, ghost: kaboomGhost(legal) });
});
canvas.addEventListener('pointerleave', () => {
  app.hover = null;
  board.setUi({ hover: null, ghost: null });
});

document.addEventListener('keydown', (e) => {
  const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement ||
    e.target instanceof HTMLSelectElement;
  if (typing || $('#game').hidden) return;
  if (e.key === ' ' || e.code === 'Space') {
    // Space belongs to a dialog, or to the focused control (a button, the Export menu's summary);
    // and with nothing to do it scrolls the page as usual.
    if (document.querySelector('dialog[open]') || e.target.closest?.('button, summary, a[href], [contenteditable]')) return;
    if (myLegal().some((a) => a.kind === 'end_turn')) {
      e.preventDefault();
      endTurn();
    } else if (e.target === canvas && isPlayer() && app.state?.status === 'playing') {
      e.preventDefault();
      hint('Space ends your turn during an optional capture sequence.');
    }
  } else if (e.key === 'Escape') {
    if (document.querySelector('dialog[open]')) return; // the dialog's own Escape
    if ($('#export-menu').open) {
      $('#export-menu').open = false;
    } else if (app.replay) {
      closeReplay();
    } else if (app.selected) {
      app.selected = null;
      renderGame();
    }
  } else if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key) && !e.altKey && !e.ctrlKey && !e.metaKey) {
    if (!app.state || document.querySelector('dialog[open]')) return;
    if (app.replay) {
      e.preventDefault();
      replayGo({ ArrowLeft: -1, ArrowRight: 1, Home: 'first', End: 'last' }[e.key]);
    } else if ((e.key === 'ArrowLeft' || e.key === 'Home') && app.state.version > 0) {
      // Looking back starts a replay of this game.
      e.preventDefault();
      openReplay(e.key === 'Home' ? 0 : app.state.version - 1);
    }
  }
});

// ---- game controls ----------------------------------------------------------------------------

/** The link to send: the LAN address when this page was opened through localhost, else its own. */
function shareLink() {
  const own = location.origin + (app.url ?? `/r/${app.room}`);
  return app.invite?.room === app.room ? app.invite.share : own;
}

/** Asks the server for its LAN addresses once per room, for the invitation's link and QR code. */
async function loadInvitation(room, url) {
  if (app.invite?.room === room) return;
  const inv = await invitation(url);
  if (app.room !== room) return;
  app.invite = { ...inv, room };
  overlayKey = '';
  renderGame();
}

async function copyLink() {
  const link = shareLink();
  const ok = await copyText(link);
  if (ok) toast('Link copied. Send it to a friend!', 'ok');
  else {
    toast(`Copy this link: ${link}`, 'info', 8000);
  }
}

function askRematch() {
  if (app.rematchAsked || app.replaced) return;
  if (send({ type: 'rematch' }, { kind: 'rematch' }) !== null) {
    app.rematchAsked = true;
    toast('Rematch asked. It starts when your opponent asks too.', 'info');
    renderGame();
  }
}

$('#end-turn').addEventListener('click', endTurn);
$('#copy-link').addEventListener('click', copyLink);
$('#flip').addEventListener('click', () => {
  app.userFlip = !app.userFlip;
  board.setFlipped(flipped());
  renderGame();
});
$('#resign').addEventListener('click', async () => {
  if (await confirmDialog('Resign this game? Your opponent wins.', 'Resign')) {
    send({ type: 'resign' }, { kind: 'resign' });
  }
});
$('#offer-draw').addEventListener('click', () => {
  if (send({ type: 'offer_draw' }, { kind: 'offer_draw' }) !== null) {
    app.drawOffer = { from: app.seat };
    renderGame();
  }
});
$('#draw-accept').addEventListener('click', () => {
  send({ type: 'answer_draw', accept: true }, { kind: 'answer_draw' });
  app.drawOffer = null;
  renderGame();
});
$('#draw-decline').addEventListener('click', () => {
  send({ type: 'answer_draw', accept: false }, { kind: 'answer_draw' });
  app.drawOffer = null;
  renderGame();
});
$('#rematch').addEventListener('click', askRematch);
/** Tells the server we leave. Before the room's first game starts that frees our seat and voids its
 *  token, so the saved seat goes too (kept, it would only earn a bad_token next time). */
function sendLeave() {
  if (!app.room) return;
  const s = app.state;
  const freesSeat = isPlayer() && !!s && app.gameNo === 1 && s.version === 0 && s.status !== 'finished';
  if (send({ type: 'leave' }) !== null && freesSeat) store.dropSeat(app.room);
}

$('#leave').addEventListener('click', () => {
  sendLeave();
  leaveToStart();
  history.pushState({}, '', '/');
});

function onDrawOffer(msg) {
  app.drawOffer = { from: msg.from };
  if (msg.from !== app.seat) toast(`${sideName(msg.from)} offers a draw.`, 'info');
  renderGame();
}

// ---- chat -------------------------------------------------------------------------------------

function onChat(msg) {
  const log = $('#chat-log');
  const seat = typeof msg.seat === 'string' ? msg.seat : 'spectator';
  log.append(h(`li.side-${seat}`, {}, h('strong', {}, msg.from || sideName(seat) || 'Someone'), ' ', msg.text ?? ''));
  while (log.children.length > 200) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

$('#chat-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const input = $('#chat-input');
  const text = input.value.trim();
  if (!text) return;
  if (send({ type: 'chat', text }, { kind: 'chat' }) !== null) input.value = '';
});

// ---- the start screen -------------------------------------------------------------------------

function showScreen(name) {
  if (document.body.dataset.screen !== name) window.scrollTo(0, 0);
  $('#start').hidden = name !== 'start';
  $('#game').hidden = name !== 'game';
  document.body.dataset.screen = name;
  if (name === 'game') requestAnimationFrame(layoutBoard);
}

function leaveToStart() {
  app.room = null;
  app.joinReq = null;
  app.creating = null;
  resetGameView();
  updateDataAttrs();
  showScreen('start');
  document.title = 'Bomb Checkers';
  refreshRooms();
}

/** Marks the label of each checked radio for style.css (which cannot rely on :has() yet). */
function markChecked(fieldset) {
  for (const label of fieldset.querySelectorAll('label')) {
    label.classList.toggle('is-checked', !!label.querySelector('input:checked'));
  }
}
for (const id of ['#variant-list', '#side-list']) $(id).addEventListener('change', () => markChecked($(id)));

function renderVariantPicker() {
  const list = $('#variant-list');
  const kids = [h('legend', {}, 'Game')];
  app.variants.forEach((v, i) => {
    const input = h('input', { type: 'radio', name: 'variant', value: v.id, checked: i === 0 });
    input.addEventListener('change', renderVariantDetails);
    kids.push(h('label.variant', {}, input, h('span.variant-body', {},
      h('span.variant-name', {}, v.name ?? variantName(v.id)),
      h('span.variant-blurb', {}, variantBlurb(v.id)))));
  });
  list.replaceChildren(...kids);
  markChecked(list);
  $('#create-btn').disabled = false;
  renderVariantDetails();
}

function selectedVariant() {
  const id = $('#create-form').querySelector('input[name=variant]:checked')?.value;
  return app.variants.find((v) => v.id === id) ?? app.variants[0];
}

function renderVariantDetails() {
  const v = selectedVariant();
  if (!v) return;
  // Options, as inputs built from their specs.
  const opts = (v.options ?? []).map((o) => {
    const id = `opt-${o.name}`;
    const help = o.description ?? o.help ?? '';
    if (o.type === 'bool') {
      return h('label.check', { title: help }, h('input', { type: 'checkbox', id, name: o.name, checked: !!o.default, dataset: { type: 'bool' } }),
        h('span', {}, humanize(o.name)), help ? h('small.muted', {}, help) : null);
    }
    return h('label.field.num', { title: help }, h('span', {}, humanize(o.name)),
      h('input', {
        type: 'number', id, name: o.name, min: o.min, max: o.max, step: 1, value: o.default ?? o.min ?? 0,
        inputmode: 'numeric', dataset: { type: 'int' },
      }),
      help ? h('small.muted', {}, help) : null);
  });
  const details = h('details.advanced', {}, h('summary', {}, 'Start position (advanced)'),
    h('label.field', {}, h('span', {}, 'Position as JSON, see PROTOCOL.md (leave empty for the normal start)'),
      h('textarea', { id: 'create-position', name: 'position', rows: 3, spellcheck: 'false', placeholder: '{"pieces":[…],"turn":"fire"}' })));
  $('#options').replaceChildren(...(opts.length ? [h('div.options-grid', {}, opts)] : []), details);
  // Sides.
  const sides = sidesOf(v.id);
  const sideKids = [h('legend', {}, 'Play as')];
  for (const s of [...sides, 'random']) {
    sideKids.push(h('label.side-pick', {},
      h('input', { type: 'radio', name: 'seat', value: s, checked: s === sides[0] }),
      s === 'random' ? h('span.chip.random', { 'aria-hidden': 'true' }, '?') : sideChip(s),
      h('span', {}, s === 'random' ? 'Random' : sideName(s))));
  }
  $('#side-list').replaceChildren(...sideKids);
  markChecked($('#side-list'));
  updateOpponent();
}

// The computer opponent: a switch and a strength slider. The server seats the computer in the
// other seat; the page then plays as against anyone.
function aiLevelName(level) {
  return aiName(level, app.ai.names);
}

function aiOffered(variant) {
  const v = app.variants.find((x) => x.id === variant);
  return v?.ai !== false;
}

function renderOpponentPicker() {
  const { levels } = app.ai;
  const range = $('#ai-level');
  const saved = store.ai;
  const prevLevel = range.dataset.ready ? levels[Number(range.value)] : saved.level;
  let idx = levels.indexOf(prevLevel);
  if (idx < 0) idx = Math.min(levels.length - 1, Math.max(0, levels.indexOf(3)));
  range.min = '0';
  range.max = String(levels.length - 1);
  range.value = String(idx);
  range.dataset.ready = '1';
  if (!$('#vs-ai').dataset.ready) {
    $('#vs-ai').checked = !!saved.on;
    $('#vs-ai').dataset.ready = '1';
  }
  $('#ai-min').textContent = aiLevelName(levels[0]);
  $('#ai-max').textContent = aiLevelName(levels[levels.length - 1]);
  updateOpponent();
}

function updateOpponent() {
  const { levels } = app.ai;
  const on = $('#vs-ai').checked;
  const offered = aiOffered(selectedVariant()?.id);
  $('#opponent').hidden = !offered;
  const range = $('#ai-level');
  const level = levels[Number(range.value)] ?? levels[0];
  $('#ai-level-box').hidden = !on;
  $('#ai-level-name').textContent = aiLevelName(level);
  $('#ai-level-num').textContent = `${level}`;
  range.setAttribute('aria-valuetext', `${aiLevelName(level)} (level ${level})`);
  $('#create-btn').textContent = on && offered ? 'Play the computer' : 'Create game';
  store.ai = { on, level };
}

$('#vs-ai').addEventListener('change', updateOpponent);
$('#ai-level').addEventListener('input', updateOpponent);

$('#create-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const v = selectedVariant();
  if (!v) return;
  const form = $('#create-form');
  const options = {};
  for (const input of form.querySelectorAll('#options input[data-type]')) {
    if (input.dataset.type === 'bool') options[input.name] = input.checked;
    else {
      const n = Number.parseInt(input.value, 10);
      if (!Number.isFinite(n)) {
        toast(`${humanize(input.name)} needs a whole number.`, 'error');
        input.focus();
        return;
      }
      options[input.name] = n;
    }
  }
  const name = $('#create-name').value.trim() || 'Player';
  store.name = name;
  const seat = form.querySelector('input[name=seat]:checked')?.value ?? 'random';
  const msg = { type: 'create', variant: v.id, options, name, seat };
  const vsAi = $('#vs-ai').checked && aiOffered(v.id);
  if (vsAi) msg.opponent = { ai: app.ai.levels[Number($('#ai-level').value)] ?? app.ai.levels[0] };
  const posText = $('#create-position')?.value.trim();
  if (posText) {
    try {
      msg.position = JSON.parse(posText);
    } catch {
      toast('The start position is not valid JSON.', 'error');
      return;
    }
  }
  resetGameView();
  const id = send(msg, { kind: 'create', name, ai: msg.opponent?.ai ?? null });
  if (id !== null) {
    app.joinReq = null;
    app.creating = id;
  }
});

$('#join-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const raw = $('#join-code').value.trim();
  const m = raw.match(/\/r\/([^/?#\s]+)/);
  const room = m ? decodeRoom(m[1]) : normRoom(raw.replace(/[^A-Za-z0-9_-]/g, ''));
  if (room === null) {
    toast('That link is damaged (a stray “%”): copy the whole link again, or type just the room code.', 'error', 6000);
    return;
  }
  if (!room) {
    toast('Paste a game link or type its room code.', 'error');
    return;
  }
  history.pushState({ room }, '', `/r/${encodeURIComponent(room)}`);
  openRoom(room);
});

async function fetchRooms() {
  const res = await fetch('/api/rooms', { cache: 'no-store' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const data = await res.json();
  return Array.isArray(data) ? data : data.rooms ?? [];
}

/** Seats from /api/rooms, whatever their shape: [{side, name}] or {side: name|{name}|null}. */
function seatList(room) {
  const sides = sidesOf(room.variant);
  const seats = room.seats ?? room.players ?? {};
  return sides.map((side) => {
    let v = Array.isArray(seats) ? seats.find((x) => x && (x.side === side || x.seat === side)) : seats[side];
    if (v && typeof v === 'object') v = v.name ?? (v.taken === false ? null : '');
    return { side, name: v === undefined || v === null || v === false ? null : String(v) };
  });
}

let roomsTimer = 0;
async function refreshRooms() {
  clearTimeout(roomsTimer);
  if ($('#start').hidden) return;
  roomsTimer = setTimeout(refreshRooms, 5000);
  const list = $('#room-list');
  let rooms;
  try {
    rooms = await fetchRooms();
  } catch {
    list.replaceChildren(h('li.muted', {}, 'The list of games is not available right now.'));
    return;
  }
  const live = rooms.filter((r) => r.status !== 'finished').slice(0, 50);
  if (!live.length) {
    list.replaceChildren(h('li.muted', {}, 'No games right now. Start one!'));
    return;
  }
  list.replaceChildren(...live.map((r) => {
    const seats = seatList(r);
    const free = seats.some((x) => x.name === null);
    return h('li.room', { dataset: { room: r.id } },
      h('div.room-main', {},
        h('span.room-variant', {}, variantName(r.variant, app.variants)),
        h('span.room-players', {}, ...seats.flatMap((x, i) => [i ? h('span.vs', {}, 'vs') : null, sideChip(x.side), h('span', {}, x.name || (x.name === '' ? sideName(x.side) : '—'))]))),
      h('div.room-meta', {},
        h(`span.pill.${r.status ?? 'playing'}`, {}, r.status === 'waiting' ? 'open' : r.status ?? ''),
        h('span.muted.watchers', {}, icon('eye'), ` ${r.spectators ?? 0}`, h('span.sr-only', {}, ' watching')),
        free ? h('button.btn.small.primary', { type: 'button', 'aria-label': `Play in game ${r.id}`, onclick: () => goRoom(r.id, 'any') }, 'Play') : null,
        h('button.btn.small', { type: 'button', 'aria-label': `Watch game ${r.id}`, onclick: () => goRoom(r.id, 'spectator') }, 'Watch')));
  }));
}

function goRoom(id, seat) {
  const room = normRoom(id);
  history.pushState({ room }, '', `/r/${encodeURIComponent(room)}`);
  // A seat this browser holds there is taken back (as a link would), not left empty while we watch.
  const saved = store.seat(room);
  if (saved) {
    enterRoom(room, { seat: saved.seat, token: saved.token, name: store.name });
    return;
  }
  const name = $('#create-name').value.trim() || store.name || 'Guest';
  enterRoom(room, { seat, name });
}

$('#rooms-refresh').addEventListener('click', refreshRooms);

function enterRoom(room, { seat, name, token = null }) {
  if (app.room !== room) resetGameView();
  app.room = room;
  app.joinReq = { room, seat, name: name || store.name || 'Guest', token };
  showScreen('game');
  renderGame();
  if (net.connected) sendJoin();
}

/** /r/{room}: resume our seat if this browser has one, else ask whether to play or watch. */
async function openRoom(room) {
  const saved = store.seat(room);
  if (saved) {
    enterRoom(room, { seat: saved.seat, token: saved.token, name: store.name });
    return;
  }
  showScreen('start');
  const dlg = $('#join-dialog');
  $('#join-title').textContent = `Join game ${room}`;
  $('#join-name').value = store.name;
  $('#join-info').textContent = 'Play if a seat is free, or watch.';
  $('#join-play').hidden = false;
  const choose = (seat) => {
    const name = $('#join-name').value.trim() || 'Guest';
    store.name = name;
    dlg.close();
    enterRoom(room, { seat, name });
  };
  $('#join-dialog-form').onsubmit = (e) => {
    e.preventDefault();
    choose('any');
  };
  $('#join-watch').onclick = () => choose('spectator');
  const cancel = () => {
    dlg.close();
    history.pushState({}, '', '/');
    leaveToStart();
  };
  $('#join-cancel').onclick = cancel;
  // Escape means Back too: closed alone, the dialog would leave a room page with nothing on it.
  dlg.oncancel = (e) => {
    e.preventDefault();
    cancel();
  };
  if (!dlg.open) dlg.showModal();
  try {
    const info = (await fetchRooms()).find((r) => normRoom(r.id) === room);
    if (!info) return;
    const seats = seatList(info);
    const waiting = seats.find((x) => x.name);
    const free = seats.some((x) => x.name === null);
    $('#join-info').textContent = free ?
      `${waiting?.name ? `${waiting.name} is` : 'Someone is'} waiting for an opponent: ${variantName(info.variant, app.variants)}.` :
      `${variantName(info.variant, app.variants)}: both seats are taken, so you can watch.`;
    $('#join-play').hidden = !free;
  } catch {
    // the dialog works without the details
  }
}

function route() {
  const m = location.pathname.match(/^\/r\/([^/]+)\/?$/);
  const room = m ? decodeRoom(m[1]) : null;
  if (m && room === null) {
    history.replaceState({}, '', '/');
    toast('That link is damaged: ask for it again, or type the room code.', 'error', 6000);
  }
  if (room) {
    if (room !== app.room) openRoom(room);
    return;
  }
  if (app.room) {
    sendLeave();
    leaveToStart();
  } else {
    showScreen('start');
    refreshRooms();
  }
}

window.addEventListener('popstate', route);

// ---- layout -----------------------------------------------------------------------------------

const area = $('#board-area');
function layoutBoard() {
  if ($('#game').hidden) return;
  const drops = $('#drops');
  const style = getComputedStyle(area);
  const padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  const padY = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  const dropsH = drops.hidden ? 0 : drops.offsetHeight + 6;
  const { width } = board.fit(area.clientWidth - padX, area.clientHeight - padY - dropsH);
  drops.style.width = `${width}px`;
  $('#game').style.setProperty('--board-w', `${width + 14}px`);
  updateDataAttrs();
}
new ResizeObserver(() => layoutBoard()).observe(area);
/** The query for the current pixel ratio changes once, when the ratio leaves it (a zoom, another
 *  screen): then the board is redrawn for the new ratio and a query for that one is watched. */
function watchPixelRatio() {
  const mq = window.matchMedia?.(`(resolution: ${window.devicePixelRatio}dppx)`);
  mq?.addEventListener?.('change', () => {
    layoutBoard();
    watchPixelRatio();
  }, { once: true });
}
watchPixelRatio();

// ---- start ------------------------------------------------------------------------------------

$('#create-name').value = store.name;
setConn(false, 'Connecting…');
net.start();
route();
