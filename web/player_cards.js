// The player cards above and below the board: each side's name (a signed-in player's a link to
// their profile), rating in a rated room (and its change once the game is rated), bombs,
// connection, clock, and whether it is to move.

import { t } from './i18n.js';
import { h, icon, sideChip, sideName } from './ui.js';
import { app } from './store/store.js';
import { atOneScreen, isPlayer, sidesOf } from './context.js';
import { clockEl } from './clocks.js';
import { presenceEl } from './presence.js';
import { isConnect } from './variants.js';
import { diffText, profilePath, ratingText } from './account.js';
import { botMark } from './challenge.js';

/** Our side in a game of the room: the players change sides with every rematch. */
function seatIn(game) {
  if (!isPlayer() || (app.gameNo - game) % 2 === 0) return app.seat;
  const sides = sidesOf(app.state.variant);
  return sides[0] === app.seat ? sides[1] : sides[0];
}

export function renderPlayer(el, side, s) {
  const p = s.players?.[side] ?? null;
  // At one screen both sides are this page's: neither is "you".
  const you = isPlayer() && !atOneScreen() && seatIn(app.replay?.game ?? app.gameNo) === side;
  const turn = s.status === 'playing' && s.turn === side;
  // A bot account's seat has `bot: true` (docs/BOTS.md); the server's computer has `ai`, its level.
  const kids = [sideChip(side), nameEl(p, side, s), p?.bot === true ? botMark() : null];
  if (you) kids.push(h('span.tag', {}, t('cards.you')));
  kids.push(...ratingEls(p));
  const ai = p && (p.ai ?? p.computer);
  if (ai)
    kids.push(
      h(
        'span.tag.ai',
        { title: Number.isInteger(ai) ? t('cards.computer_level', { level: ai }) : t('cards.computer') },
        t('cards.computer_tag'),
      ),
    );
  kids.push(h('span.pside', {}, sideName(side)));
  if (isConnect(s.variant) && s.bombs && side in s.bombs) {
    // Screen readers get the count in words (an aria-label on a plain span is not read); the
    // icons and the "×N" are for the eye.
    const n = s.bombs[side];
    kids.push(
      h(
        'span.bombs',
        { title: t('cards.bombs_title') },
        h(
          'span',
          { 'aria-hidden': 'true' },
          ...Array.from({ length: Math.min(5, n) }, () => icon('bomb')),
          n === 0 ? t('cards.no_bombs') : '',
          n > 5 ? `×${n}` : '',
        ),
        h('span.sr-only', {}, t('cards.bombs_left', { count: n })),
      ),
    );
  }
  // Whether the player is here now, and their lag, from the live state: not for the players of an
  // earlier game being replayed.
  if (p && !(app.replay && app.replay.game !== app.gameNo)) kids.push(presenceEl(side, app.state.players?.[side] ?? p));
  if (turn) kids.push(h('span.to-move', {}, t('cards.to_move')));
  const clock = clockEl(side);
  kids.push(clock);
  el.replaceChildren(...kids.filter(Boolean));
  el.className = `player side-${side}${turn ? ' active' : ''}${p ? '' : ' empty'}${clock ? ' timed' : ''}`;
}

/** The player's name; an account's is a link to its profile (a new tab while we play the game). */
function nameEl(p, side, s) {
  if (!p) return h('span.pname', {}, t('cards.waiting_player'));
  const text = p.name || p.account || sideName(side);
  if (!p.account) return h('span.pname', {}, text);
  const playing = isPlayer() && s.status !== 'finished';
  return h(
    'a.pname',
    {
      href: profilePath(p.account),
      title: t('cards.profile_of', { name: p.account }),
      dataset: playing ? null : { route: '' },
      target: playing ? '_blank' : null,
      rel: playing ? 'noopener' : null,
    },
    text,
  );
}

/** In a rated room: the rating (1500? while provisional) and, once the game is rated, its change. */
function ratingEls(p) {
  if (!p || !Number.isFinite(p.rating)) return [];
  const diff = Number.isFinite(p.rating_diff) ? Math.round(p.rating_diff) : null;
  return [
    h('span.rating', { title: p.provisional ? t('cards.rating_provisional') : t('cards.rating') }, ratingText(p)),
    diff === null
      ? null
      : h(
          `span.rating-diff.${diff > 0 ? 'up' : diff < 0 ? 'down' : 'same'}`,
          { title: t('cards.rating_change') },
          diffText(diff),
        ),
  ];
}
