// The leaderboard page, /leaderboard (GET /api/leaderboard): for every perf that has rated games,
// its ranked players (ratings no longer provisional), and apart from them the best of those whose
// rating is still provisional, unranked.

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
  document.title = 'Leaderboard · Bomb Checkers';
  say('Loading…');
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
    say(
      status === 404
        ? 'This server keeps no ratings.'
        : status
          ? `The leaderboard is not available just now (HTTP ${status}).`
          : 'The server cannot be reached just now.',
    );
    return;
  }
  const boards = Array.isArray(data.leaderboards) ? data.leaderboards : [];
  say(boards.length ? '' : 'No rated games yet: play one from the start page’s quick pairing.');
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
const games = (n) => `${n} ${n === 1 ? 'game' : 'games'}`;

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
      : h('p.muted.small', {}, 'Nobody ranked yet: a rating is ranked once it is no longer provisional.'),
    provisional.length
      ? h(
          'div.lb-provisional',
          {},
          h('h3', {}, 'Provisional'),
          h('p.muted.small', {}, 'New ratings, not ranked until a few more games settle them.'),
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
