// The service worker: the page, its rules core and its offline server (web/offline/) kept in the
// browser, so that the page opens and plays with no server (docs/ENGINE.md, "Offline"). Always the
// network first, so a host's update is seen at once; the browser's copy only when the server cannot
// be reached. FILES is every file of web/, kept true by scripts/web-precache.mjs (the test command).

const CACHE = 'bombcheckers-v1';

// prettier-ignore
const FILES = [
  // precache: begin (scripts/web-precache.mjs --fix writes this list)
  '/account.js',
  '/account_menu.js',
  '/acts.js',
  '/analysis/index.html',
  '/announce.js',
  '/app.js',
  '/board.js',
  '/board_effects.js',
  '/board_keys.js',
  '/board_layers.js',
  '/board_values.js',
  '/challenge.js',
  '/clocks.css',
  '/clocks.js',
  '/connection.js',
  '/context.js',
  '/controls.js',
  '/create_form.js',
  '/data/puzzles.json',
  '/delta.js',
  '/editor.css',
  '/editor.js',
  '/editor_board.js',
  '/editor_check.js',
  '/editor_palette.js',
  '/editor_play.js',
  '/editor_state.js',
  '/engine.js',
  '/engine/core.mjs',
  '/engine/core.wasm',
  '/explore.js',
  '/export.js',
  '/favicon.svg',
  '/game.css',
  '/game_overlay.js',
  '/game_positions.js',
  '/game_state.js',
  '/game_view.js',
  '/i18n.js',
  '/i18n/de.js',
  '/i18n/de/game.js',
  '/i18n/de/page.js',
  '/i18n/de/play.js',
  '/i18n/de/screens.js',
  '/i18n/en.js',
  '/i18n/en/game.js',
  '/i18n/en/page.js',
  '/i18n/en/play.js',
  '/i18n/en/screens.js',
  '/i18n/es.js',
  '/i18n/es/game.js',
  '/i18n/es/page.js',
  '/i18n/es/play.js',
  '/i18n/es/screens.js',
  '/index.html',
  '/input.js',
  '/keyboard.js',
  '/leaderboard.js',
  '/lobby.css',
  '/lobby.js',
  '/local_socket.js',
  '/manifest.webmanifest',
  '/move_list.js',
  '/net.js',
  '/notation.js',
  '/notation_view.js',
  '/offline/offline.mjs',
  '/offline/offline.wasm',
  '/offline/worker.js',
  '/one_screen.js',
  '/pieces.js',
  '/player_cards.js',
  '/players.css',
  '/pools.js',
  '/position_text.js',
  '/premove.js',
  '/presence.js',
  '/profile.js',
  '/puzzle.js',
  '/puzzle_board.js',
  '/puzzle_list.js',
  '/puzzle_play.js',
  '/puzzle_words.js',
  '/puzzles.css',
  '/qr.js',
  '/rating_chart.js',
  '/replay.js',
  '/replay_view.js',
  '/room_requests.js',
  '/screen.js',
  '/seat_pick.js',
  '/seeks.js',
  '/server_time.js',
  '/sounds.js',
  '/squares.js',
  '/store/analysis.js',
  '/store/game.js',
  '/store/players.js',
  '/store/puzzle.js',
  '/store/saved.js',
  '/store/select.js',
  '/store/session.js',
  '/store/store.js',
  '/store/view.js',
  '/style.css',
  '/takeback.css',
  '/takeback.js',
  '/time_control.js',
  '/turn_words.js',
  '/ui.js',
  '/value_chart.js',
  '/values.css',
  '/values.js',
  '/values_view.js',
  '/variants.js',
  '/watch_values.js',
  // precache: end
];

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(['/', ...FILES].map((f) => new Request(f, { cache: 'reload' })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

/** The addresses of the app's pages, all served by index.html (the router reads the address). */
function isAppPage(path) {
  return (
    path === '/' ||
    path === '/index.html' ||
    /^\/r\/[^/]+\/?$/.test(path) ||
    /^\/analysis\/?$/.test(path) ||
    /^\/@\/[^/]+\/?$/.test(path) ||
    /^\/leaderboard\/?$/.test(path) ||
    /^\/puzzles(\/[^/]+)?\/?$/.test(path)
  );
}

/** From the server, keeping a copy under `key`; from the copy when the server cannot be reached. */
async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (e) {
    const copy = await cache.match(key);
    if (copy) return copy;
    throw e;
  }
}

const FILES_SET = new Set(FILES);

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  // Only the page's own files and pages: the socket, the API, /healthz and /metrics, and anything
  // else, are the server's alone.
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    if (isAppPage(url.pathname)) event.respondWith(networkFirst(request, '/'));
    return;
  }
  if (FILES_SET.has(url.pathname)) event.respondWith(networkFirst(request, url.pathname));
});
