// Looking back over a game: the positions of its moves, the replay bar and its controls.

import { t } from './i18n.js';
import { $, h, icon, resultText, sideChip, sideName, toast } from './ui.js';
import { fetchRecord, movesFromRecord, parsePositions } from './replay.js';
import { app, batch, dispatch } from './store/store.js';
import { enrichMoves } from './store/game.js';
import { board, flipped, isPlayer, mySide, sidesOf } from './context.js';
import { loadPositions, moveIndexOf, shownMoves } from './game_positions.js';
import { screen } from './screen.js';
import { moveText } from './notation_view.js';

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
export function viewState() {
  const s = app.state;
  const r = app.replay;
  if (!s || !r) return s;
  const snap = positionsOf(r.game).get(r.version);
  if (!snap) return s;
  const players = r.game === app.gameNo ? s.players : (snap.players ?? r.record?.players ?? s.players);
  const status = snap.status ?? (snap.result ? 'finished' : 'playing');
  return { ...s, ...snap, status, players, legal: [], draw_offer: null };
}

/** The position that shows the board after `version`: that version's, else one a takeback put in
 *  its place (the next position, of no turn of its own); null if there is none. */
function positionAfter(version, game, vs, moves) {
  if (vs.includes(version)) return version;
  const own = moveIndexOf(version, moves);
  if (version !== 0 && !moves[own]?.versions?.includes(version)) return null;
  const next = vs.find((v) => v > version);
  if (next === undefined || moves.some((m) => m.versions?.includes(next))) return null;
  if (version === 0) return positionsOf(game).get(next)?.last ? null : next;
  return moveIndexOf(next, moves) === own ? next : null;
}

/** ["Move 3 of 12", "hop 2 of 3"] and the like, for the replay bar. */
export function replayLabel() {
  const r = app.replay;
  if (!r) return [];
  const moves = shownMoves();
  const i = moveIndexOf(r.version, moves);
  // A takeback to the start shows the start position, with no last turn.
  if (r.version === 0 || (i < 0 && positionsOf(r.game).get(r.version)?.last === null))
    return [t('html.start_position')];
  if (i < 0) return [t('replay.position', { n: r.version })];
  const m = moves[i];
  const parts = [t('replay.move_of', { n: i + 1, of: moves.length })];
  const vs = m.versions ?? [];
  if (vs.length > 1 && vs.includes(r.version))
    parts.push(t('replay.step_of', { n: vs.indexOf(r.version) + 1, of: vs.length }));
  return parts;
}

/** Opens the replay at a version (the nearest position this tab has), of this game or an earlier one. */
export async function openReplay(version, game = app.gameNo) {
  const s = app.state;
  if (!s || !app.room) return;
  const room = app.room;
  let record = app.replay?.game === game ? app.replay.record : null;
  let moves = app.replay?.game === game ? app.replay.moves : (app.pastMoves.get(game) ?? null);
  if (!haveAll(game)) await loadPositions(game);
  if (game !== app.gameNo && !record) {
    try {
      record = await fetchRecord(room, game);
    } catch {
      record = null;
    }
    if (record) {
      if (app.room !== room) return;
      dispatch({ type: 'got/positions', game, positions: parsePositions(record, game) });
      if (!moves?.length) {
        moves = movesFromRecord(record);
        enrichMoves(app.games, moves, game);
      }
    }
  }
  if (app.room !== room || !app.state) return;
  const vs = replayVersions(game);
  if (!vs.length) {
    toast(
      game === app.gameNo
        ? t('replay.unavailable')
        : record
          ? t('replay.no_earlier', { game })
          : t('replay.gone', { game }),
      'error',
      6000,
    );
    screen.render();
    return;
  }
  // The position after that version (or the one a takeback put in its place), else the nearest
  // one before it, else the first one there is.
  const list = game === app.gameNo ? app.moves : (moves ?? []);
  const after = positionAfter(version, game, vs, list);
  const target = after ?? [...vs].reverse().find((v) => v <= version) ?? vs[0];
  if (after === null && vs[0] > 0 && target === vs[0] && version < vs[0]) {
    toast(t('replay.before_join'), 'info', 5000);
  }
  const wasReplay = !!app.replay;
  batch(() => {
    dispatch({ type: 'want/replay', replay: { game, version: target, moves, record } });
    document.body.dataset.replay = 'true';
    showReplayBoard();
    if (!wasReplay) requestAnimationFrame(() => screen.layout());
    $('#replay-bar').hidden = false;
  });
}

function showReplayBoard() {
  const v = viewState();
  if (v && board.setState(v)) screen.layout();
  board.setFlipped(flipped());
}

export function replayGo(where) {
  const r = app.replay;
  if (!r) return;
  const vs = replayVersions(r.game);
  let i = vs.indexOf(r.version);
  if (where === 'first') i = 0;
  else if (where === 'last') i = vs.length - 1;
  else i = Math.max(0, Math.min(vs.length - 1, i + where));
  if (vs[i] === undefined || vs[i] === r.version) return;
  batch(() => {
    dispatch({ type: 'want/replay_step', version: vs[i] });
    showReplayBoard();
  });
}

export function closeReplay() {
  if (!app.replay) return;
  batch(() => {
    dispatch({ type: 'want/close_replay' });
    delete document.body.dataset.replay;
    $('#replay-bar').hidden = true;
    $('#replay-game').replaceChildren();
    if (app.state) {
      if (board.setState(app.state)) screen.layout();
      board.setFlipped(flipped());
    }
    requestAnimationFrame(() => screen.layout());
    screen.forgetOverlay();
  });
}

export function renderReplayBar() {
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
    detail.replaceChildren(
      resultText(
        snap.result,
        sides,
        snap.connect ?? o.connect ?? 4,
        !!o.misere,
        r.game === app.gameNo ? app.leftSide : null,
      ),
    );
  } else if (snap?.last && r.version > 0) {
    detail.replaceChildren(
      sideChip(snap.last.side),
      ` ${sideName(snap.last.side)} ${moveText(snap.last)}`,
      snap.last.exploded?.length ? icon('boom', 'explosion') : '',
      snap.last.promoted?.length ? icon('crown', 'crowned') : '',
    );
  } else {
    detail.replaceChildren(snap?.turn ? t('kb.to_move_caption', { side: sideName(snap.turn) }) : '');
  }
  if (sub) detail.append(h('span.muted', {}, ` · ${sub}`));
  // Live (a game still going on) or Close (a finished one), and which game of the series.
  const running = r.game === app.gameNo && s.status !== 'finished';
  const live = $('#replay-live');
  live.replaceChildren(
    running ? h('span.live-dot', { 'aria-hidden': 'true' }) : h('span', { 'aria-hidden': 'true' }, '×'),
    running ? ` ${t('replay.live')}` : ` ${t('replay.close')}`,
  );
  live.setAttribute('aria-label', running ? t('replay.back_live') : t('replay.close_replay'));
  live.classList.toggle('primary', running && isPlayer() && s.status === 'playing' && s.turn === mySide());
  const sel = $('#replay-game');
  sel.hidden = app.gameNo < 2;
  if (app.gameNo > 1 && sel.options.length !== app.gameNo) {
    sel.replaceChildren(
      ...Array.from({ length: app.gameNo }, (_, k) =>
        h(
          'option',
          { value: k + 1 },
          k + 1 === app.gameNo ? t('replay.game_this', { game: k + 1 }) : t('moves.game', { game: k + 1 }),
        ),
      ),
    );
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
  screen.render();
});
$('#replay-game').addEventListener('change', (e) => openReplay(0, Number(e.target.value)));
