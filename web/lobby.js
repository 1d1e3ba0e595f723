// The start screen and routes: joining by code, the live games, a room's link (/r/{room}) and
// its join dialog, the players' pages (/@/{name}, /leaderboard) and the puzzles (/puzzles,
// /puzzles/{id}); the New game form is
// create_form.js, quick pairing pools.js.

import { t } from './i18n.js';
import { $, h, icon, sideChip, sideName, toast, variantName } from './ui.js';
import { app, batch, dispatch, subscribe } from './store/store.js';
import { decodeRoom, normRoom, saved } from './store/saved.js';
import { sendJoin, sendLeave } from './room_requests.js';
import { net, sidesOf } from './context.js';
import { clearGameScreen } from './game_state.js';
import { screen, showScreen } from './screen.js';
import { apiFetch } from './net.js';
import { controlWords } from './time_control.js';
import { openAnalysis } from './editor.js';
import { ensurePlayer } from './account.js';
import { openProfile } from './profile.js';
import { openLeaderboard } from './leaderboard.js';
import { openPuzzles } from './puzzle_list.js';
import { openPuzzle } from './puzzle.js';
import { rangeShort, rangeText, seatToAsk, seekBlocker } from './seeks.js';

export function leaveToStart() {
  clearGameScreen();
  dispatch({ type: 'want/leave' });
  screen.dataAttrs();
  showScreen('start');
  document.title = 'Bomb Checkers';
  refreshRooms();
}

$('#join-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const raw = $('#join-code').value.trim();
  const m = raw.match(/\/r\/([^/?#\s]+)/);
  const room = m ? decodeRoom(m[1]) : normRoom(raw.replace(/[^A-Za-z0-9_-]/g, ''));
  if (room === null) {
    toast(t('lobby.damaged_percent'), 'error', 6000);
    return;
  }
  if (!room) {
    toast(t('lobby.paste'), 'error');
    return;
  }
  history.pushState({ room }, '', `/r/${encodeURIComponent(room)}`);
  openRoom(room);
});

async function fetchRooms() {
  const res = await apiFetch('/api/rooms', { cache: 'no-store' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const data = await res.json();
  return Array.isArray(data) ? data : (data.rooms ?? []);
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

/** A room's pill when it is rated: "rated", or with a seek's range, "rated · 1300–1700". */
function ratedPill(r) {
  if (!r.rated) return null;
  const title = r.range ? t('lobby.rated_range_title', { range: rangeText(r.range) }) : t('lobby.rated_title');
  if (!r.range) return h('span.pill.rated', { title }, t('lobby.rated'));
  return h(
    'span.pill.rated',
    { title },
    `${t('lobby.rated')} · ${rangeShort(r.range)}`,
    h('span.sr-only', {}, ` (${t('lobby.for_ratings', { range: rangeText(r.range) })})`),
  );
}

let roomsTimer = 0;
let shownRooms = null; // the list as last fetched, drawn again when our player or ratings change
export async function refreshRooms() {
  clearTimeout(roomsTimer);
  if ($('#start').hidden || net.offline) return;
  roomsTimer = setTimeout(refreshRooms, 5000);
  try {
    shownRooms = await fetchRooms();
  } catch {
    shownRooms = null;
    $('#room-list').replaceChildren(h('li.muted', {}, t('lobby.list_unavailable')));
    return;
  }
  renderRooms(shownRooms);
}

subscribe((actions) => {
  if (shownRooms && !$('#start').hidden && actions.some((a) => a.type === 'got/me')) renderRooms(shownRooms);
});

function renderRooms(rooms) {
  const list = $('#room-list');
  // At most 50, and the ones that matter to this visitor first: a game this browser holds a seat
  // in, then games with a seat free for it (the server lists rooms by id, so a busy server's newest
  // room could fall past the 50 otherwise).
  const open = (r) => seatList(r).some((x) => x.name === null) && !r.one_screen && !seekBlocker(r);
  const rank = (r) => (saved.seat(r.id) ? 0 : open(r) ? 1 : 2);
  const live = rooms
    .filter((r) => r.status !== 'finished')
    .map((r, i) => ({ r, i, k: rank(r) }))
    .sort((a, b) => a.k - b.k || a.i - b.i)
    .slice(0, 50)
    .map(({ r }) => r);
  if (!live.length) {
    list.replaceChildren(h('li.muted', {}, t('lobby.no_games')));
    return;
  }
  list.replaceChildren(
    ...live.map((r) => {
      const seats = seatList(r);
      const free = seats.some((x) => x.name === null) && !r.one_screen;
      const why = free ? seekBlocker(r, !!saved.seat(r.id)) : null;
      const whyId = `seek-why-${r.id}`;
      return h(
        'li.room',
        { dataset: { room: r.id } },
        h(
          'div.room-main',
          {},
          h('span.room-variant', {}, variantName(r.variant, app.variants)),
          r.options_text ? h('span.room-options', {}, r.options_text) : null,
          h(
            'span.room-players',
            {},
            ...seats.flatMap((x, i) => [
              i ? h('span.vs', {}, t('lobby.vs')) : null,
              sideChip(x.side),
              h('span', {}, x.name || (x.name === '' ? sideName(x.side) : '—')),
            ]),
          ),
          why ? h('p.seek-why', { id: whyId }, why) : null,
        ),
        h(
          'div.room-meta',
          {},
          h(
            `span.pill.${r.status ?? 'playing'}`,
            {},
            ['waiting', 'playing', 'finished'].includes(r.status) ? t(`lobby.status_${r.status}`) : (r.status ?? ''),
          ),
          r.one_screen
            ? h('span.pill.one-screen', { title: t('lobby.one_screen_title') }, t('lobby.one_screen'))
            : null,
          ratedPill(r),
          r.clock
            ? h(
                'span.pill.clock',
                { title: controlWords(r.clock) },
                icon('clock'),
                r.clock,
                h('span.sr-only', {}, ` (${controlWords(r.clock)})`),
              )
            : null,
          h(
            'span.muted.watchers',
            {},
            icon('eye'),
            ` ${r.spectators ?? 0}`,
            h('span.sr-only', {}, ` ${t('lobby.watching')}`),
          ),
          h(
            'span.room-actions',
            {},
            free
              ? h(
                  'button.btn.small.primary',
                  {
                    type: 'button',
                    'aria-label': t('lobby.play_in', { room: r.id }),
                    disabled: !!why,
                    title: why,
                    'aria-describedby': why ? whyId : null,
                    onclick: () => goRoom(r.id, seatToAsk(r, seats), r.rated),
                  },
                  t('html.play'),
                )
              : null,
            h(
              'button.btn.small',
              {
                type: 'button',
                'aria-label': t('lobby.watch_game', { room: r.id }),
                onclick: () => goRoom(r.id, 'spectator'),
              },
              t('html.watch'),
            ),
          ),
        ),
      );
    }),
  );
}

/** To room `id`: its seat taken back if this browser holds one, else `seat` ('any', 'spectator').
 *  Only a player may sit in a `rated` room: a guest is made first if this browser has none. */
export async function goRoom(id, seat, rated = false) {
  if (rated && seat !== 'spectator' && !app.me && app.accounts) await ensurePlayer();
  const room = normRoom(id);
  history.pushState({ room }, '', `/r/${encodeURIComponent(room)}`);
  // A seat this browser holds there is taken back (as a link would), not left empty while we watch.
  const held = saved.seat(room);
  if (held) {
    enterRoom(room, { seat: held.seat, token: held.token, name: saved.name });
    return;
  }
  const name = $('#create-name').value.trim() || saved.name || 'Guest';
  enterRoom(room, { seat, name });
}

$('#rooms-refresh').addEventListener('click', refreshRooms);

function enterRoom(room, { seat, name, token = null }) {
  const fresh = app.room !== room;
  if (fresh) clearGameScreen();
  batch(() => {
    dispatch({ type: 'want/enter', room, seat, name: name || saved.name || 'Guest', token, fresh });
    showScreen('game');
  });
  if (net.connected) sendJoin();
}

/** /r/{room}: resume our seat if this browser has one, else ask whether to play or watch. */
async function openRoom(room) {
  const held = saved.seat(room);
  if (held) {
    enterRoom(room, { seat: held.seat, token: held.token, name: saved.name });
    return;
  }
  showScreen('start');
  const dlg = $('#join-dialog');
  $('#join-title').textContent = t('lobby.join_title', { room });
  $('#join-name').value = saved.name;
  $('#join-info').textContent = t('lobby.join_default');
  $('#join-play').hidden = false;
  let rated = false;
  let playSeat = 'any';
  const choose = async (seat) => {
    const name = $('#join-name').value.trim() || 'Guest';
    saved.name = name;
    dlg.close();
    // Only a player may sit in a rated room: a guest is made first if this browser has none.
    if (rated && seat !== 'spectator' && !app.me && app.accounts) await ensurePlayer();
    enterRoom(room, { seat, name });
  };
  $('#join-dialog-form').onsubmit = (e) => {
    e.preventDefault();
    choose(playSeat);
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
  joinInfo = null;
  try {
    const info = (await fetchRooms()).find((r) => normRoom(r.id) === room);
    if (!info || !dlg.open) return;
    rated = !!info.rated;
    playSeat = seatToAsk(info, seatList(info));
    joinInfo = info;
    describeJoin(info);
  } catch {
    // the dialog works without the details
  }
}

let joinInfo = null; // the room the join dialog describes, from /api/rooms

/** The join dialog's words on the room, and its Play when a seat is free for us. */
function describeJoin(info) {
  const seats = seatList(info);
  const waiting = seats.find((x) => x.name);
  const free = seats.some((x) => x.name === null) && !info.one_screen;
  const why = free ? seekBlocker(info) : null;
  // The game as the server words it: its variant, then its options that are not the default.
  const variant = variantName(info.variant, app.variants);
  let game = info.rated ? t('lobby.rated_game', { variant }) : variant;
  if (info.options_text) game += ` (${info.options_text})`;
  if (info.range) game += ` ${t('lobby.for_ratings', { range: rangeText(info.range) })}`;
  const names = seats.map((x) => x.name || sideName(x.side)).join(` ${t('lobby.and')} `);
  $('#join-info').textContent = info.one_screen
    ? t('lobby.join_one_screen', { game, names })
    : why
      ? t('lobby.join_why', { game, why })
      : free
        ? t('lobby.join_waiting', { who: waiting?.name || t('controls.someone'), game })
        : t('lobby.join_taken', { game });
  $('#join-play').hidden = !free || !!why;
}

// Who we are may be known only after the dialog opened: whether a seek is for us follows it.
subscribe((actions) => {
  if (joinInfo && $('#join-dialog').open && actions.some((a) => a.type === 'got/me')) describeJoin(joinInfo);
});

$('#open-analysis').addEventListener('click', (e) => {
  if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
  e.preventDefault();
  history.pushState({}, '', '/analysis');
  route();
});

/** Out of the room we are in, for another page. */
function leaveRoom() {
  if (app.room) {
    sendLeave();
    leaveToStart();
  }
}

/** A player's name in a profile's path, or null when its %-escapes are broken. */
function decodeName(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

export function route() {
  if (/^\/analysis\/?$/.test(location.pathname)) {
    leaveRoom();
    openAnalysis();
    return;
  }
  const profile = location.pathname.match(/^\/@\/([^/]+)\/?$/);
  if (profile || /^\/leaderboard\/?$/.test(location.pathname)) {
    leaveRoom();
    const name = profile && decodeName(profile[1]);
    if (profile && name) openProfile(name);
    else if (!profile) openLeaderboard();
    else {
      history.replaceState({}, '', '/');
      route();
    }
    return;
  }
  const puzzle = location.pathname.match(/^\/puzzles(?:\/([^/]+))?\/?$/);
  if (puzzle) {
    leaveRoom();
    const id = puzzle[1] && decodeName(puzzle[1]);
    if (id) openPuzzle(id);
    else openPuzzles();
    return;
  }
  const m = location.pathname.match(/^\/r\/([^/]+)\/?$/);
  const room = m ? decodeRoom(m[1]) : null;
  if (m && room === null) {
    history.replaceState({}, '', '/');
    toast(t('lobby.damaged'), 'error', 6000);
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

// Links to the page's own pages (marked data-route: a profile, the leaderboard, a game) go there
// without loading the page again; a click with a modifier opens them as the browser would.
document.addEventListener('click', (e) => {
  const a = e.target instanceof Element ? e.target.closest('a[data-route][href]') : null;
  if (!a || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || a.target) return;
  e.preventDefault();
  a.closest('details[open]')?.removeAttribute('open');
  if (location.pathname + location.search !== a.getAttribute('href')) history.pushState({}, '', a.getAttribute('href'));
  route();
});
