// A player's page, /@/{name} (GET /api/players/{name}): their ratings in each perf with their
// wins, draws and losses, the chart of their ratings over time (rating_chart.js) and their latest
// rated games, each a link to its room.

import { language, t } from './i18n.js';
import { $, h, variantName } from './ui.js';
import { app } from './store/store.js';
import { apiFetch } from './net.js';
import { showScreen } from './screen.js';
import { diffText, profilePath, ratingText, speedName } from './account.js';
import { drawRatingChart, perfColour } from './rating_chart.js';
import { botMark, showChallenge } from './challenge.js';

/** A perf's name: "Bomb Checkers · Blitz". */
export function perfName(variant, speed) {
  return `${variantName(variant, app.variants)} · ${speedName(speed)}`;
}

/** "bomb:blitz" as its variant and speed. */
function perfParts(perf) {
  const [variant, speed] = String(perf).split(':');
  return { variant, speed };
}

const RESULT_WORDS = { won: 'profile.won', lost: 'profile.lost', drawn: 'short.draw', draw: 'short.draw' };
const when = (ms) => new Date(ms).toLocaleString(language(), { dateStyle: 'medium', timeStyle: 'short' });

let shown = null; // the profile on the page: {name, data}
let seq = 0;

export async function openProfile(name) {
  const mine = ++seq;
  showScreen('profile');
  document.title = `${name} · Bomb Checkers`;
  $('#profile-name').textContent = name;
  $('#profile-since').textContent = '';
  $('#profile-body').hidden = true;
  showChallenge(null);
  say(t('html.loading'));
  let res;
  try {
    res = await apiFetch(`/api/players/${encodeURIComponent(name)}`, { cache: 'no-store' });
  } catch {
    if (mine === seq) say(t('account.unreachable'));
    return;
  }
  if (mine !== seq) return;
  if (res.status === 404) {
    say(t('profile.no_player', { name }));
    return;
  }
  if (!res.ok) {
    say(t('profile.unavailable', { status: res.status }));
    return;
  }
  const data = await res.json();
  if (mine !== seq) return;
  shown = { name, data };
  renderProfile(data);
}

function say(text) {
  const el = $('#profile-message');
  el.textContent = text;
  el.hidden = !text;
}

function renderProfile(p) {
  say('');
  $('#profile-name').replaceChildren(p.name, p.bot ? botMark() : '');
  document.title = `${p.name} · Bomb Checkers`;
  $('#profile-since').textContent = p.created_ms
    ? t('profile.since', { date: new Date(p.created_ms).toLocaleDateString(language(), { dateStyle: 'long' }) })
    : '';
  const c = p.counts ?? {};
  $('#profile-counts').replaceChildren(
    ...[
      ['wins', t('profile.won_count'), c.wins],
      ['draws', t('profile.drawn_count'), c.draws],
      ['losses', t('profile.lost_count'), c.losses],
    ].map(([cls, word, n]) => h(`span.count.${cls}`, {}, h('strong', {}, String(n ?? 0)), ` ${word}`)),
  );
  renderRatings(p.ratings ?? []);
  renderHistory(p.history ?? []);
  renderGames(p.games ?? []);
  $('#profile-body').hidden = false;
  showChallenge(p);
  redrawChart();
}

function renderRatings(ratings) {
  $('#profile-ratings').replaceChildren(
    ...(ratings.length
      ? ratings.map((r) =>
          h(
            'li.perf',
            { dataset: { perf: r.perf } },
            h('span.perf-name', {}, perfName(r.variant, r.speed)),
            h(
              'strong.perf-rating',
              { title: r.provisional ? t('profile.provisional') : t('profile.deviation', { d: r.deviation }) },
              ratingText(r),
            ),
            h(
              'span.perf-games.muted',
              {},
              `${t('profile.games', { count: r.games })} · ${t('profile.wdl', { w: r.wins, d: r.draws, l: r.losses })}`,
            ),
          ),
        )
      : [h('li.muted', {}, t('profile.no_rated'))]),
  );
}

function renderHistory(history) {
  const lines = history.filter((l) => Array.isArray(l.points) && l.points.length);
  $('#profile-chart-card').hidden = !lines.length;
  $('#chart-legend').replaceChildren(
    ...lines.map((l, i) => {
      const { variant, speed } = perfParts(l.perf);
      const last = l.points[l.points.length - 1];
      return h(
        'li',
        {},
        h('span.swatch', { style: `background:${perfColour(i)}`, 'aria-hidden': 'true' }),
        `${perfName(variant, speed)}: ${Math.round(last[1])}`,
      );
    }),
  );
  const words = lines.map((l) => {
    const { variant, speed } = perfParts(l.perf);
    const pts = l.points;
    return t('profile.history_line', {
      perf: perfName(variant, speed),
      from: Math.round(pts[0][1]),
      to: Math.round(pts[pts.length - 1][1]),
      games: t('profile.games', { count: pts.length }),
    });
  });
  $('#rating-chart').setAttribute(
    'aria-label',
    `${t('html.rating_history')}: ${words.join('; ') || t('profile.none')}`,
  );
}

function redrawChart() {
  if (!shown || $('#profile').hidden || $('#profile-chart-card').hidden) return;
  drawRatingChart(
    $('#rating-chart'),
    (shown.data.history ?? []).filter((l) => l.points?.length),
  );
}
window.addEventListener('resize', redrawChart);

function renderGames(games) {
  $('#profile-games').replaceChildren(
    ...(games.length
      ? games.map((g) => {
          const diff = Number.isFinite(g.after) && Number.isFinite(g.before) ? Math.round(g.after - g.before) : null;
          return h(
            `li.game-row.${g.result ?? 'unknown'}`,
            { dataset: { room: g.room } },
            h(
              `span.result.${g.result ?? ''}`,
              {},
              RESULT_WORDS[g.result] ? t(RESULT_WORDS[g.result]) : (g.result ?? ''),
            ),
            h(
              'span.game-vs',
              {},
              `${t('lobby.vs')} `,
              g.opponent
                ? h('a', { href: profilePath(g.opponent), dataset: { route: '' } }, g.opponent)
                : h('span.muted', {}, t('profile.a_guest')),
            ),
            h('span.game-perf.muted', {}, perfName(g.variant, g.speed)),
            diff === null
              ? null
              : h(
                  'span.game-rating',
                  {},
                  `${Math.round(g.after)} `,
                  h(`span.rating-diff.${diff > 0 ? 'up' : diff < 0 ? 'down' : 'same'}`, {}, diffText(diff)),
                ),
            h('time.muted', { datetime: new Date(g.ended_ms).toISOString() }, when(g.ended_ms)),
            h(
              'a.btn.small.game-link',
              {
                href: g.url ?? `/r/${g.room}`,
                dataset: { route: '' },
                'aria-label': t('profile.game_room', { room: g.room }),
              },
              g.room,
            ),
          );
        })
      : [h('li.muted', {}, t('profile.no_rated'))]),
  );
}
