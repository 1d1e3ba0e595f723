// The leaderboard page, /leaderboard (GET /api/leaderboard): for every perf that has rated games,
// its ranked players (ratings no longer provisional), and apart from them the best of those whose
// rating is still provisional, unranked.

import { t } from './i18n.js';
import { $, h } from './ui.js';
import { apiFetch } from './net.js';
import { showScreen } from './screen.js';
import { profilePath, ratingText } from './account.js';
import { perfName } from './profile.js';
import { botMark } from './challenge.js';

let seq = 0;

export async function openLeaderboard() {
  const mine = ++seq;
  showScreen('leaderboard');
  document.title = `${t('html.leaderboard')} · Bomb Checkers`;
  say(t('html.loading'));
  let data = null;
  let status = 0;
  try {
    const res = await apiFetch('/api/leaderboard', { cache: 'no-store' });
    status = res.status;
    if (res.ok) data = await res.json();
  } catch {
    // said below
  }
  if (mine !== seq) return;
  if (!data) {
    $('#leaderboard-list').replaceChildren();
    say(status === 404 ? t('lb.no_ratings') : status ? t('lb.unavailable', { status }) : t('account.unreachable'));
    return;
  }
  const boards = Array.isArray(data.leaderboards) ? data.leaderboards : [];
  say(boards.length ? '' : t('lb.none'));
  $('#leaderboard-list').replaceChildren(...boards.map(board));
}

function say(text) {
  const el = $('#leaderboard-message');
  el.textContent = text;
  el.hidden = !text;
}

const nameLink = (p) => [
  h('a.lb-name', { href: profilePath(p.name), dataset: { route: '' } }, p.name),
  p.bot ? botMark() : null,
];
const games = (n) => t('profile.games', { count: n });

/** One perf's card: its ranked players, then its provisional ones. */
function board(b) {
  const ranked = Array.isArray(b.players) ? b.players : [];
  const provisional = Array.isArray(b.provisional) ? b.provisional : [];
  const title = perfName(b.variant, b.speed);
  return h(
    'section.card.lb-perf',
    { dataset: { perf: b.perf }, 'aria-label': title },
    h('h2', {}, title),
    ranked.length
      ? h(
          'ol.lb-list.lb-ranked',
          {},
          ...ranked.map((p) =>
            h(
              'li',
              {},
              h('span.lb-rank', {}, `${p.rank}`),
              nameLink(p),
              h('strong.lb-rating', {}, ratingText({ rating: p.rating })),
              h('span.lb-games.muted', {}, games(p.games)),
            ),
          ),
        )
      : h('p.muted.small', {}, t('lb.nobody')),
    provisional.length
      ? h(
          'div.lb-provisional',
          {},
          h('h3', {}, t('lb.provisional')),
          h('p.muted.small', {}, t('lb.new_ratings')),
          h(
            'ul.lb-list',
            {},
            ...provisional.map((p) =>
              h(
                'li',
                {},
                nameLink(p),
                h('strong.lb-rating', {}, ratingText({ rating: p.rating, provisional: true })),
                h('span.lb-games.muted', {}, games(p.games)),
              ),
            ),
          ),
        )
      : null,
  );
}
