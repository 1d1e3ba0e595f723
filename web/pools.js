// Quick pairing on the start screen (docs/PLAYERS.md, "Pools"): for the variant chosen, a button
// for each of the server's pools (3+2, 5+3, ...). Pressing one enters it (a guest is made first if
// this browser has no player), the card says how many wait there and offers Cancel, and once the
// server pairs us the page goes to the game: with `join` it joins the room itself, without it the
// server has already seated us (its `joined` came just before, connection.js took it in).

import { t } from './i18n.js';
import { $, h, toast, variantName } from './ui.js';
import { app, batch, dispatch, subscribe } from './store/store.js';
import { normRoom } from './store/saved.js';
import { net, send } from './context.js';
import { ensurePlayer, ratingText, speedInText, speedName } from './account.js';
import { goRoom } from './lobby.js';
import { controlWords, fischerName } from './time_control.js';

const VARIANT_KEY = 'bc.poolVariant';

/** The variants that have pools, in the server's order. */
function poolVariants() {
  const ids = [...new Set(app.pools.map((p) => p.variant))];
  return ids.map((id) => ({ id, name: variantName(id, app.variants) }));
}

function chosenVariant() {
  const list = poolVariants();
  const picked = $('#pool-variant').value || localStorage.getItem(VARIANT_KEY);
  return list.find((v) => v.id === picked)?.id ?? list[0]?.id ?? null;
}

/** Our rating in a perf ("bomb:blitz"), or null when we have none yet. */
function myRating(perf) {
  return app.me?.ratings?.find((r) => r.perf === perf) ?? null;
}

export function renderPools() {
  const card = $('#pools-card');
  const offered = app.accounts === true && !app.offline && app.pools.length > 0;
  card.hidden = !offered;
  if (!offered) return;
  const sel = $('#pool-variant');
  const variant = chosenVariant();
  const variants = poolVariants();
  if (sel.options.length !== variants.length || [...sel.options].some((o, i) => o.value !== variants[i].id)) {
    sel.replaceChildren(...variants.map((v) => h('option', { value: v.id }, v.name)));
  }
  sel.value = variant;
  const pool = app.pool;
  $('#pool-grid').replaceChildren(
    ...app.pools
      .filter((p) => p.variant === variant)
      .map((p) => {
        const name = fischerName(p.clock.base, p.clock.increment);
        const speed = speedName(p.perf.split(':')[1]);
        const mine = myRating(p.perf);
        const on = pool?.id === p.id && !pool.leaving;
        return h(
          `button.pool-btn${on ? '.waiting' : ''}`,
          {
            type: 'button',
            dataset: { pool: p.id },
            'aria-pressed': on ? 'true' : 'false',
            title: t('pools.title', { control: controlWords(name), speed: speedInText(speed) }),
            onclick: () => press(p.id),
          },
          h('span.sr-only', {}, `${variantName(p.variant, app.variants)}, `),
          h('strong.pool-clock', {}, name),
          h('span.pool-speed', {}, speed),
          mine
            ? h('span.pool-rating', { title: t('pools.your_rating', { speed: speedInText(speed) }) }, ratingText(mine))
            : null,
        );
      }),
  );
  const wait = $('#pool-wait');
  wait.hidden = !pool;
  if (pool) {
    const p = app.pools.find((x) => x.id === pool.id);
    const what = p
      ? `${variantName(p.variant, app.variants)} ${fischerName(p.clock.base, p.clock.increment)}`
      : pool.id;
    let text;
    if (pool.leaving) text = t('pools.leaving');
    else if (pool.waiting === null) text = t('pools.entering', { what });
    else text = t('pools.waiting', { n: pool.waiting, what });
    $('#pool-wait-text').textContent = text;
    $('#pool-cancel').disabled = pool.leaving;
  }
}

function sendPool() {
  const id = app.pool?.id;
  if (!id || !net.connected) return;
  send({ type: 'pool', pool: id }, { kind: 'pool', pool: id });
}

async function press(id) {
  if (app.pool?.id === id && !app.pool.leaving) {
    cancel();
    return;
  }
  dispatch({ type: 'want/pool', pool: id });
  // With no player yet, a guest is made; the socket it renews sends the pool when it opens.
  if (!app.me) {
    if (!(await ensurePlayer())) dispatch({ type: 'want/no_pool' });
    return;
  }
  sendPool();
}

function cancel() {
  if (!app.pool) return;
  if (!net.connected) {
    dispatch({ type: 'want/no_pool' });
    return;
  }
  dispatch({ type: 'want/pool_cancel' });
  send({ type: 'pool', pool: null });
}

/** connection.js, when a socket opens: back into the pool we were waiting in. */
export function resendPool() {
  if (app.pool && !app.pool.leaving && app.me) sendPool();
}

/** The server's `pool`: in one (how many wait there), or out of every one. */
export function onPool(msg) {
  batch(() => {
    if (msg.id) dispatch({ type: 'got/reply', id: msg.id });
    dispatch({ type: 'got/pool', pool: msg.pool ?? null, waiting: Number.isInteger(msg.waiting) ? msg.waiting : null });
  });
  if (msg.dropped) toast(t('pools.dropped', { why: msg.dropped }), 'error', 6000);
}

/** The server paired us: to the game. */
export function onPaired(msg) {
  dispatch({ type: 'got/paired' });
  const room = normRoom(msg.room);
  if (!room) return;
  // With `join` false the server seated us, and its `joined` has taken us there already.
  if (msg.join || app.room !== room) goRoom(room, 'any');
}

$('#pool-variant').addEventListener('change', () => {
  localStorage.setItem(VARIANT_KEY, $('#pool-variant').value);
  renderPools();
});
$('#pool-cancel').addEventListener('click', cancel);

const HEARD = new Set([
  'got/me',
  'got/welcome',
  'want/pool',
  'want/no_pool',
  'want/pool_cancel',
  'got/pool',
  'got/paired',
  'got/error',
  'net/down',
  'net/offline',
  'want/enter',
  'want/create',
]);
subscribe((actions) => {
  if (actions.some((a) => HEARD.has(a.type))) renderPools();
});
