// The WebSocket link to the server: one JSON object per text frame, automatic reconnection with
// exponential backoff (and jitter, so a restarted server is not hit by every browser at once).
// Offline, the same link goes to a LocalSocket: the server's room and computer in a Web Worker.

import { LocalSocket } from './local_socket.js';

// The LocalSocket while the page plays offline: apiFetch asks it for the records of its games.
let offlineSocket = null;

const MIN_DELAY_MS = 400;
const MAX_DELAY_MS = 10000;

export class Net {
  /**
   * @param {string} url ws:// or wss:// address of the game socket
   * @param {{message:(msg:object)=>void, open:()=>void, down:(retryMs:number)=>void}} on
   */
  constructor(url, on) {
    this.url = url;
    this.on = on;
    this.ws = null;
    this.attempt = 0;
    this.timer = 0;
    this.nextId = 1;
    this.stopped = false;
    this.offline = false; // playing with no server: the socket is a LocalSocket
    window.addEventListener('online', () => this.retryNow());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.retryNow();
    });
  }

  get connected() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /** Plays with no server (true) or goes back to it (false): the link is opened again. */
  setOffline(offline) {
    if (this.offline === offline) return;
    this.offline = offline;
    this.attempt = 0;
    const old = this.ws;
    this.ws = null;
    old?.close();
    this.open();
  }

  start() {
    this.stopped = false;
    this.open();
  }

  open() {
    clearTimeout(this.timer);
    this.timer = 0;
    let ws;
    try {
      ws = this.offline ? new LocalSocket() : new WebSocket(this.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    offlineSocket = this.offline ? ws : null;
    ws.addEventListener('open', () => {
      if (this.ws !== ws) return;
      this.attempt = 0;
      this.on.open();
    });
    ws.addEventListener('message', (ev) => {
      if (this.ws !== ws || typeof ev.data !== 'string') return;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg && typeof msg.type === 'string') this.on.message(msg);
    });
    ws.addEventListener('close', () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (!this.stopped) this.scheduleRetry();
    });
    // 'error' is always followed by 'close'; nothing to do here.
  }

  scheduleRetry() {
    if (this.timer) return;
    const base = Math.min(MAX_DELAY_MS, MIN_DELAY_MS * 2 ** this.attempt);
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.attempt++;
    this.timer = setTimeout(() => {
      this.timer = 0;
      this.open();
    }, delay);
    // Told after the retry is due: what it does (setOffline opens the link now) replaces it.
    this.on.down(delay);
  }

  /** Reconnect at once if we are waiting to retry (the network came back, the tab was shown). */
  retryNow() {
    if (this.stopped || this.ws !== null || !this.timer) return;
    this.attempt = Math.max(0, this.attempt - 1);
    this.open();
  }

  /** Sends one message; returns its id, or null when the socket is down. */
  send(msg) {
    if (!this.connected) return null;
    const id = msg.id ?? `c${this.nextId++}`;
    this.ws.send(JSON.stringify({ ...msg, id }));
    return id;
  }

  /**
   * A new socket at once in place of this one, which closes without a word to the page (no "down",
   * no retry): the server reads who this browser plays as (its session cookie) only when a socket
   * opens, so every change of it (a guest made, a sign-in, a sign-out) needs a new one.
   */
  renew() {
    if (this.offline) return;
    const old = this.ws;
    this.ws = null;
    old?.close();
    this.attempt = 0;
    this.open();
  }

  /** Drops the current socket (used by tests and by "leave" to start afresh). */
  reconnect() {
    if (this.ws) this.ws.close();
    else this.retryNow();
  }
}

/**
 * fetch() for the JSON API: a `429` or `503` with Retry-After (the server's per-address request
 * limits, or records being prepared) is tried again after the seconds it names, up to 3 times.
 */
export async function apiFetch(url, options = {}) {
  // Playing offline, a game's record comes from the room in this browser.
  const local = offlineSocket ? await offlineSocket.answer(url) : null;
  if (local) return local;
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, options);
    const wait = Number(res.headers.get('Retry-After'));
    if ((res.status !== 429 && res.status !== 503) || attempt >= 3 || !(wait >= 0)) return res;
    await new Promise((done) => setTimeout(done, Math.min(wait, 5) * 1000 + 100 * attempt));
  }
}
