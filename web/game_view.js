// Drawing the game screen from the latest state: players, status, overlay, drops, layout (the move
// list is move_list.js's, the notation's parts notation_view.js's).

import { $, h, icon, resultText, sideName, variantName } from './ui.js';
import { app, subscribe } from './store/store.js';
import { t } from './i18n.js';
import { atOneScreen, board, canvas, flipped, isPlayer, myLegal, mySide, pieceAt, same, sidesOf } from './context.js';
import { act } from './acts.js';
import { renderClocks } from './clocks.js';
import { premoveKey, premoveMarks } from './premove.js';
import { renderAway } from './presence.js';
import { renderPlayer } from './player_cards.js';
import { drawQuestion, renderOneScreen, turnLine } from './one_screen.js';
import { renderReplayBar, replayLabel, viewState } from './replay_view.js';
import { renderTakeback } from './takeback.js';
import { renderValues } from './values_view.js';
import { renderNotation } from './notation_view.js';
import { renderMoves } from './move_list.js';
import { drawTheScreenWith } from './screen.js';
import { forgetOverlay, renderOverlay } from './game_overlay.js';
import { isConnect } from './variants.js';

// ---- rendering the game -----------------------------------------------------------------------

export function updateDataAttrs() {
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
  canvas.dataset.premove = premoveKey();
  canvas.dataset.replayVersion = app.replay ? String(app.replay.version) : '';
  canvas.dataset.replayGame = app.replay ? String(app.replay.game) : '';
  canvas.dataset.game = s ? String(app.gameNo) : '';
}

/** What a game kept under rules revision 1 (begun before 2026-11-24) plays differently. */
const RULES_1_NOTE = {
  bomb: 'game.rules1_bomb',
  triple_king: 'game.rules1_triple_king',
  other: 'game.rules1_other',
};

export function renderGame() {
  const s = app.state;
  updateDataAttrs();
  if (!s) {
    $('#status-line').textContent = app.room ? t('game.joining') : '';
    renderClocks();
    renderAway();
    renderValues();
    return;
  }
  const sides = sidesOf(s.variant);
  const legal = myLegal();
  renderHighlights(s, legal);

  // Players: the side at the bottom of the screen goes below the board. In a replay the cards
  // follow the position shown (who was to move, bombs left), and that game's players.
  const view = viewState() ?? s;
  const bottom = flipped() ? sides[1] : sides[0];
  const top = bottom === sides[0] ? sides[1] : sides[0];
  renderPlayer($('#player-top'), top, view);
  renderPlayer($('#player-bottom'), bottom, view);

  const text = renderStatus(s, sides, legal);
  renderHeader(s);
  renderControls(s, legal);
  renderDrawOffer(s);
  renderOneScreen(s);
  renderTakeback(s);
  renderOverlay(s, sides);
  renderDrops(s, legal);
  renderNotation(view);
  renderMoves();
  renderReplayBar();
  renderClocks();
  renderAway();
  renderValues();
  canvas.setAttribute(
    'aria-label',
    app.replay
      ? `${variantName(s.variant, app.variants)} board, replay: ${replayLabel().join(' ')}`
      : `${variantName(s.variant, app.variants)} board. ${text}`,
  );
}

/** What the board marks: pieces that may move, the selected one's targets, bombs to detonate. */
function renderHighlights(s, legal) {
  let targets = [];
  let movable = [];
  let detonatable = [];
  if (isConnect(s.variant)) {
    detonatable = legal.filter((a) => a.kind === 'detonate' && a.at).map((a) => a.at);
  } else {
    const froms = new Map();
    for (const a of legal) if (a.from) froms.set(a.from.join(','), a.from);
    movable = [...froms.values()];
    if (app.selected) {
      targets = legal
        .filter((a) => a.to && same(a.from, app.selected))
        .map((a) => ({ sq: a.to, capture: a.kind === 'jump' }));
    }
  }
  board.setFlipped(flipped());
  board.setUi({
    selected: app.replay ? null : app.selected,
    targets,
    movable,
    detonatable,
    ghost: kaboomGhost(legal),
    premove: app.replay ? null : premoveMarks(),
  });
}

/** The status line (whose turn, the result) and the tab's title; returns the line's text. */
function renderStatus(s, sides, legal) {
  const line = $('#status-line');
  let text;
  let cls;
  const here = atOneScreen();
  const myTurn = isPlayer() && s.status === 'playing' && s.turn === mySide();
  if (s.status === 'finished') {
    const opt = s.options ?? {};
    text = resultText(s.result, sides, s.connect ?? opt.connect ?? 4, !!opt.misere, app.leftSide);
    cls = 'finished';
    if (s.result?.winner && isPlayer() && !here) cls += s.result.winner === app.seat ? ' won' : ' lost';
  } else if (s.status === 'waiting') {
    text = t('game.waiting');
    cls = 'waiting';
  } else if (here) {
    text = turnLine(s, legal); // both sides play here: the line says whose turn, by name
    cls = `turn side-${s.turn}`;
  } else if (myTurn) {
    text = legal.some((a) => a.kind === 'end_turn') ? t('game.your_turn_capture') : t('ann.your_turn');
    cls = `turn mine side-${s.turn}`;
  } else {
    text = t('ann.to_move', { side: sideName(s.turn) });
    cls = `turn side-${s.turn}`;
  }
  if (app.pending) text = t('game.sending');
  if (app.replaced) {
    text = t('game.paused');
    cls = 'waiting';
  }
  line.textContent = text;
  line.className = `status-line ${cls}`;
  const turnMark = !myTurn
    ? ''
    : `● ${here ? t('kb.to_move_caption', { side: sideName(s.turn) }) : t('game.your_turn_short')} · `;
  document.title = `${turnMark}${variantName(s.variant, app.variants)} · ${s.room ?? ''}`;
  return text;
}

/** Room code, game, watchers, and the note on a game kept under earlier rules. */
function renderHeader(s) {
  $('#room-code').textContent = s.room ?? app.room ?? '';
  $('#room-code').title = t('game.room_code');
  $('#variant-label').textContent = variantName(s.variant, app.variants);
  // The server's words for the options that are not the default (absent from an older server).
  $('#options-label').textContent = s.options_text ?? '';
  $('#options-label').hidden = !s.options_text;
  const n = s.spectators ?? 0;
  $('#spectators').replaceChildren(icon('eye'), ` ${t('game.watching', { count: n })}`);
  // A game stored under earlier rules goes on under them (docs/RULES.md, Revisions).
  $('#rules-note').hidden = !(s.rules < 2);
  $('#rules-note').textContent = s.rules < 2 ? t(RULES_1_NOTE[s.variant] ?? RULES_1_NOTE.other) : '';
}

/** Which game buttons show, and which a paused tab may not use. */
function renderControls(s, legal) {
  const playing = s.status === 'playing';
  $('#end-turn').hidden = !legal.some((a) => a.kind === 'end_turn');
  // At one screen a standing offer waits for its answer on this screen, not for another offer.
  $('#offer-draw').hidden = !(isPlayer() && playing) || (atOneScreen() && !!app.drawOffer);
  $('#resign').hidden = !(isPlayer() && playing);
  $('#rematch').hidden = !(isPlayer() && s.status === 'finished');
  $('#rematch').disabled = app.rematchAsked || app.replaced;
  // A paused tab (another one has the seat) shows the game but cannot act in it.
  for (const el of [
    $('#offer-draw'),
    $('#resign'),
    $('#draw-accept'),
    $('#draw-decline'),
    $('#chat-input'),
    $('#chat-form button'),
  ]) {
    el.disabled = app.replaced;
  }
  $('#rematch [data-i18n]').textContent = app.rematchAsked ? t('game.rematch_asked') : t('html.rematch');
  $('#flip').hidden = isConnect(s.variant);
  $('#replay').hidden = !(s.status === 'finished' && s.version > 0) || !!app.replay;
  $('#export-menu').hidden = !(s.version > 0 || s.status === 'finished' || app.gameNo > 1);
}

/** A draw offer, ours (waiting) or the other side's (to answer). */
function renderDrawOffer(s) {
  const offer = $('#draw-offer');
  if (app.drawOffer && s.status === 'playing') {
    const here = atOneScreen(); // the offer is answered on the screen it was made on
    const mine = !here && app.drawOffer.from === app.seat;
    offer.hidden = false;
    $('#draw-offer-text').textContent = here
      ? drawQuestion(app.drawOffer.from)
      : mine
        ? t('game.you_offered_draw')
        : t('game.offers_draw', { side: sideName(app.drawOffer.from) });
    $('#draw-accept').hidden = mine || !isPlayer();
    $('#draw-decline').hidden = mine || !isPlayer();
  } else {
    offer.hidden = true;
  }
}

export function kaboomGhost(legal) {
  const s = app.state;
  if (!s || !isConnect(s.variant) || !app.hover) return null;
  const col = app.hover[0];
  if (!legal.some((a) => a.kind === 'drop' && a.column === col)) return null;
  const y = (s.board?.pieces ?? []).filter((p) => p.at[0] === col).length;
  if (y >= (s.board?.height ?? 6)) return null;
  if (pieceAt(app.hover)?.kind === 'bomb' && legal.some((a) => a.kind === 'detonate' && same(a.at, app.hover)))
    return null;
  return { sq: [col, y], piece: { at: [col, y], side: mySide(), kind: 'normal', rank: 'man' } };
}

function renderDrops(s, legal) {
  const drops = $('#drops');
  if (!isConnect(s.variant)) {
    if (!drops.hidden) {
      drops.hidden = true;
      layoutBoard();
    }
    return;
  }
  const cols = s.board?.width ?? 7;
  const wasHidden = drops.hidden;
  drops.hidden = false;
  // The buttons are made once per board width and only their state changes from render to render
  // (a presence update renders every 2 s): a tap whose press and release straddle a render still
  // lands, and a keyboard's focus stays on its button.
  if (drops.children.length !== cols) {
    drops.style.gridTemplateColumns = `repeat(${cols}, minmax(0, 1fr))`;
    drops.replaceChildren(...Array.from({ length: cols }, (_, c) => dropColumn(c)));
  }
  for (const button of drops.querySelectorAll('button.drop')) {
    const column = Number(button.dataset.column);
    const bomb = button.dataset.piece === 'bomb';
    button.dropAction =
      legal.find((a) => a.kind === 'drop' && a.column === column && (a.piece === 'bomb') === bomb) ?? null;
    button.disabled = !button.dropAction;
    if (!bomb) {
      // Only the side's colour: the Values toggle's classes on the button stay.
      for (const c of [...button.classList]) if (c.startsWith('side-')) button.classList.remove(c);
      button.classList.add(`side-${mySide()}`);
    }
  }
  if (wasHidden) layoutBoard();
}

/** Column c's two drop buttons; each plays the action the last render gave it. */
function dropColumn(c) {
  const onclick = (e) => e.currentTarget.dropAction && act(e.currentTarget.dropAction);
  return h(
    'div.drop-col',
    {},
    h(
      'button.drop',
      {
        type: 'button',
        'aria-label': t('game.drop_piece', { column: c + 1 }),
        title: t('game.drop_in', { column: c + 1 }),
        dataset: { column: c, piece: 'normal' },
        onclick,
      },
      '▼',
    ),
    h(
      'button.drop.bomb',
      {
        type: 'button',
        'aria-label': t('game.drop_bomb', { column: c + 1 }),
        title: t('game.drop_bomb', { column: c + 1 }),
        dataset: { column: c, piece: 'bomb' },
        onclick,
      },
      icon('bomb'),
    ),
  );
}

// ---- layout -----------------------------------------------------------------------------------

const area = $('#board-area');
export function layoutBoard() {
  if ($('#game').hidden) return;
  const drops = $('#drops');
  const style = getComputedStyle(area);
  const padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  const padY = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  // Columns too narrow for a column's two buttons side by side (a 12-wide board on a phone) stack
  // them, so that each stays a finger's width.
  const cols = drops.children.length;
  drops.classList.toggle('narrow', !drops.hidden && cols > 0 && (area.clientWidth - padX) / cols < 48);
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
  mq?.addEventListener?.(
    'change',
    () => {
      layoutBoard();
      watchPixelRatio();
    },
    { once: true },
  );
}
watchPixelRatio();

// The game screen is drawn again after every change of the client's state but these: the square
// under the pointer (the board draws it), the result card's own note that it showed, and the
// bookkeeping of requests, whose answers bring what the screen shows; and the analysis board's.
const UNSEEN = new Set(['want/hover', 'view/result_shown', 'sent/request', 'sent/positions', 'got/ok', 'got/reply']);
subscribe((actions) => {
  if (actions.some((a) => !UNSEEN.has(a.type) && !a.type.startsWith('analysis/'))) renderGame();
});

drawTheScreenWith({
  render: renderGame,
  layout: layoutBoard,
  dataAttrs: updateDataAttrs,
  forgetOverlay,
  ghost: kaboomGhost,
});
