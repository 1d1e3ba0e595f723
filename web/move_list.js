// The move list beside the board: the turns of the game shown (this one, or the one replayed),
// each a button to its position, in the notation picked (notation_view.js), with the result and
// the earlier games of a rematch series.

import { t } from './i18n.js';
import { $, h, icon, resultShort, sideChip } from './ui.js';
import { app } from './store/store.js';
import { sidesOf } from './context.js';
import { openReplay } from './replay_view.js';
import { moveIndexOf, shownMoves } from './game_positions.js';
import { gamesmanNodes, moveText, positionAfterMove } from './notation_view.js';

/** How the current game ended, in a few words, once it has. */
function finalResult() {
  const s = app.state;
  return s?.status === 'finished' && s.result ? resultShort(s.result, sidesOf(s.variant), app.leftSide) : null;
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
export function renderMoves() {
  const list = $('#move-list');
  const r = app.replay;
  const moves = shownMoves();
  const current = r ? moveIndexOf(r.version, moves) : -1;
  const result = r && r.game !== app.gameNo ? null : finalResult();
  const game = r?.game ?? app.gameNo;
  const after = moves.map((m) => positionAfterMove(m, game));
  const k = JSON.stringify([
    moves.map((m) => [m.side, m.actions.length, m.versions, m.exploded.length, m.promoted.length]),
    app.movesPartial,
    r?.game,
    current,
    app.gameNo,
    result,
    moves.map(moveText),
    after,
  ]);
  if (k === movesKey && list.children.length) return;
  movesKey = k;
  const items = moves.map((m, i) => {
    const v = m.versions?.length ? Math.max(...m.versions) : null;
    const body = [
      h('span.num', {}, `${i + 1}.`),
      sideChip(m.side),
      h('span.mv', {}, moveText(m)),
      m.exploded.length ? icon('boom', 'explosion') : null,
      m.promoted.length ? icon('crown', 'crowned') : null,
      after[i] ? h('span.pos-after', { title: t('moves.position_after') }, ...gamesmanNodes(after[i])) : null,
    ];
    const cls = `li${i === current ? '.current' : ''}`;
    if (v === null) return h(cls, {}, ...body);
    return h(
      cls,
      { dataset: { version: v }, 'aria-current': i === current ? 'step' : null },
      h(
        'button.move',
        {
          type: 'button',
          title: t('moves.show_after'),
          onclick: () => openReplay(v, r?.game ?? app.gameNo),
        },
        ...body,
      ),
    );
  });
  if (app.movesPartial && !(r && r.game !== app.gameNo)) items.unshift(h('li.muted', {}, t('moves.earlier_not_shown')));
  if (!items.length) items.push(h('li.muted', {}, t('moves.none')));
  if (result) items.push(h('li.result', {}, result));
  if (app.gameNo > 1 && !r) {
    // The earlier games of a rematch series, newest first.
    const earlier = [];
    for (let g = app.gameNo - 1; g >= Math.max(1, app.gameNo - 3); g--) {
      earlier.push(
        h(
          'button.btn.small.ghost',
          { type: 'button', onclick: () => openReplay(0, g), 'aria-label': t('moves.replay_game', { game: g }) },
          icon('play'),
          t('moves.game', { game: g }),
        ),
      );
    }
    items.push(h('li.earlier', {}, h('span.muted', {}, t('html.replay')), ...earlier));
  }
  list.replaceChildren(...items);
  list.classList.toggle('replaying', !!r);
  const cur = list.querySelector('li.current');
  if (cur) scrollWithin(list, cur);
  else if (!r) list.scrollTop = list.scrollHeight;
}
