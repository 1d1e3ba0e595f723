// Who this browser plays as (docs/PLAYERS.md, "Identity"): nobody yet, a guest, or an account,
// held by the server's HttpOnly session cookie. The HTTP calls that change it (a guest made,
// sign-up, sign-in, sign-out) and, after each, a new socket: the server reads the cookie only when
// a socket opens. The header's menu is account_menu.js; the store keeps the answer (app.me).

import { language, t } from './i18n.js';
import { app, dispatch } from './store/store.js';
import { net } from './context.js';
import { toast } from './ui.js';
import { apiFetch } from './net.js';

/** The server's answer: {ok: true, data} or {ok: false, status, error, message}. A GET is tried
 *  again after a 429 as apiFetch does; a POST is not: a sign-in refused for a while
 *  (rate_limited) says so at once, next to its form. */
async function call(method, path, body = null) {
  let res;
  try {
    res = await (method === 'GET' ? apiFetch : fetch)(path, {
      method,
      cache: 'no-store',
      credentials: 'same-origin',
      headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch {
    return { ok: false, status: 0, error: 'offline', message: t('account.unreachable') };
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    // an answer with no JSON (an older server's 404 page)
  }
  if (res.ok && data) return { ok: true, data };
  let message = data?.message || t('account.answered', { status: res.status });
  const wait = Number(res.headers.get('Retry-After'));
  if (res.status === 429 && wait > 0)
    message += ` ${t('account.try_again', { wait: wait < 90 ? `${wait} s` : `${Math.ceil(wait / 60)} min` })}`;
  return { ok: false, status: res.status, error: data?.error ?? `http_${res.status}`, message };
}

function tookIn(data) {
  dispatch({ type: 'got/me', accounts: data.accounts !== false, player: data.player ?? null });
}

/** GET /api/me: whether the server has players, and who this browser is. */
export async function loadMe() {
  const r = await call('GET', '/api/me');
  if (r.ok) tookIn(r.data);
  // A server from before players (404), or one whose accounts are off: none of it shows.
  else if (r.status === 404) dispatch({ type: 'got/me', accounts: false, player: null });
  return r;
}

// ---- a new socket after a change of player -----------------------------------------------------

let waiting = [];
/** connection.js: a socket to the server opened. */
export function socketOpened() {
  const w = waiting;
  waiting = [];
  for (const done of w) done(true);
}

/** The socket again, as the new player: resolves once it is open (false after 10 s without). */
function renewSocket() {
  const open = new Promise((done) => {
    waiting.push(done);
    setTimeout(() => done(false), 10000);
  });
  dispatch({ type: 'net/down' }); // nothing asked on the old socket will be answered
  net.renew();
  return open;
}

/** A change of player the server made: the store takes its answer, then the socket follows. */
async function became(r) {
  if (!r.ok) return r;
  tookIn(r.data);
  await renewSocket();
  return r;
}

export const signUp = (name, password) => call('POST', '/api/signup', { name, password }).then(became);
export const signIn = (name, password) => call('POST', '/api/login', { name, password }).then(became);
export const signOut = () => call('POST', '/api/logout').then(became);
export const signOutEverywhere = () => call('POST', '/api/logout-all').then(became);
export const sessions = () => call('GET', '/api/sessions');

let making = null;
/**
 * A player for this browser, made when first needed (a pool pressed, a rated game): a guest if it
 * has none, and then a socket that plays as it. Resolves true once there is one.
 */
export async function ensurePlayer() {
  if (app.me) return true;
  if (!app.accounts) {
    toast(t('account.no_players'), 'error');
    return false;
  }
  making ??= call('POST', '/api/guest')
    .then(became)
    .finally(() => {
      making = null;
    });
  const r = await making;
  if (!r.ok) toast(r.message, 'error', 6000);
  return r.ok && !!app.me;
}

// ---- words ---------------------------------------------------------------------------------------

const SPEEDS = ['ultrabullet', 'bullet', 'blitz', 'rapid', 'classical', 'correspondence'];

/** A speed's name: "Blitz", "Correspondence". */
export function speedName(speed) {
  const s = String(speed ?? '');
  return SPEEDS.includes(s) ? t(`speed.${s}`) : s ? s[0].toUpperCase() + s.slice(1) : '';
}

/** A speed's name inside a sentence: "your blitz rating"; German keeps its nouns' capital. */
export const speedInText = (speed) => (language() === 'de' ? speed : speed.toLowerCase());

/** A rating as shown: 1500?, with the question mark while it is provisional. */
export function ratingText(r) {
  return `${Math.round(r.rating)}${r.provisional ? '?' : ''}`;
}

/** A rating's change: +12, −12 (a minus sign), ±0. */
export function diffText(d) {
  return d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '±0';
}

/** The path of a player's profile. */
export function profilePath(name) {
  return `/@/${encodeURIComponent(name)}`;
}
