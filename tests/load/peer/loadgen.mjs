#!/usr/bin/env node
// The load generator of the peer benchmark (README.md): one Node process, N clients (N/2 rooms of
// two players) on 127.0.0.1, against bombcheckers ("ours", docs/PROTOCOL.md) or the Colyseus room
// of colyseus_server.mjs ("colyseus"). Closed loop (the mover moves as soon as it sees its turn) or
// paced (--rate R: Poisson arrivals at R moves/s over all rooms). Warm-up, then a measured window:
// moves accepted (seen by their mover), mover latency, the server's CPU from /proc/PID/stat.
// Prints one JSON object (the report) on stdout; progress on stderr. Bounded in time.
//
// usage: node loadgen.mjs --target ours|colyseus --port P [--server-pid PID] [options]
//   --compact 0|1|2      ours: /ws?compact=N (default 2, as the web page)
//   --clients N          connections, two per room (default 2000)
//   --duration SEC       measured window (default 10)
//   --warmup SEC         after every room is playing, before the window (default 3)
//   --rate R             paced mode: R moves/s over all rooms (default: closed loop)
//   --think-ms MS        closed loop: mean pause (0.5..1.5 x MS) before each move (default 0)
//   --pace-rate R        per-connection token bucket, messages/s (default 19 = 95 % of bombcheckers'
//   --pace-burst B         20/s; burst 38 = 95 % of 40); used for both targets; 0 = no pacing.
//                          For ours it is lowered to 95 % of welcome.limits if that is lower.
//   --seed S             random moves (default 1)
//   --connect-parallel K rooms being set up at once (default 100)
//   --setup-timeout SEC  (default 120)
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { Client as ColyseusClient } from 'colyseus.js';
import { applyDelta } from '../../../web/delta.js';
import { legalMoves } from './board_game.mjs';

// ------------------------------------------------------------------------------------------------
// Options

const argv = process.argv.slice(2);
const o = {
  target: 'ours', port: 0, serverPid: 0, compact: 2, clients: 2000, duration: 10, warmup: 3,
  rate: 0, thinkMs: 0, paceRate: 19, paceBurst: 38, seed: 1, connectParallel: 100, setupTimeout: 120,
};
const names = {
  '--target': ['target', String], '--port': ['port', Number], '--server-pid': ['serverPid', Number],
  '--compact': ['compact', Number], '--clients': ['clients', Number], '--duration': ['duration', Number],
  '--warmup': ['warmup', Number], '--rate': ['rate', Number], '--think-ms': ['thinkMs', Number],
  '--pace-rate': ['paceRate', Number], '--pace-burst': ['paceBurst', Number], '--seed': ['seed', Number],
  '--connect-parallel': ['connectParallel', Number], '--setup-timeout': ['setupTimeout', Number],
};
for (let i = 0; i < argv.length; i++) {
  const spec = names[argv[i]];
  if (!spec || i + 1 >= argv.length) {
    console.error(`loadgen: unknown or incomplete option ${argv[i]} (see the head of loadgen.mjs)`);
    process.exit(2);
  }
  o[spec[0]] = spec[1](argv[++i]);
}
if (!['ours', 'colyseus'].includes(o.target) || !o.port || o.clients < 2 || o.clients % 2) {
  console.error('loadgen: need --target ours|colyseus, --port P and an even --clients >= 2');
  process.exit(2);
}
const rooms = o.clients / 2;
const log = (...a) => console.error(`loadgen[${o.target}${o.target === 'ours' ? ` compact=${o.compact}` : ''}]:`, ...a);

// ------------------------------------------------------------------------------------------------
// Measurement helpers

const now = () => performance.now();
function procStat(pid) {
  // utime and stime (fields 14, 15) in clock ticks (100/s on Linux); the comm may hold spaces.
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch { return null; }
}
function rssBytes(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch { return null; }
}
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
function mulberry32(a) {
  return () => {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function percentile(sorted, p) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

const stats = {
  errors: {}, notices: {}, setupRetries: {}, closed: 0, connectFailures: 0, paced: 0, late: 0, syncs: 0,
  movesSent: 0, gamesStarted: 0,
};
const countError = (map, code) => { map[code] = (map[code] ?? 0) + 1; };
let phase = 'setup'; // setup -> warmup -> window -> drain
let windowStart = 0, windowEnd = 0;
let windowMoves = 0;
const latencies = []; // ms, window only
function moveSeen(sentAt) {
  const t = now();
  if (phase === 'window' || (phase === 'drain' && t <= windowEnd)) {
    if (t >= windowStart) { windowMoves++; latencies.push(t - sentAt); }
  }
}

// A per-connection token bucket (the same for both targets): `send(fn)` runs fn now or later.
class Bucket {
  constructor(rate, burst) { this.rate = rate; this.burst = burst; this.tokens = burst; this.t = now(); this.q = []; this.timer = null; }
  send(fn) {
    if (!this.rate) return fn();
    if (!this.q.length && this.take()) return fn();
    stats.paced++;
    this.q.push(fn);
    this.arm();
  }
  take() {
    const t = now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.t) / 1000) * this.rate);
    this.t = t;
    if (this.tokens >= 1) { this.tokens -= 1; return true; }
    return false;
  }
  arm() {
    if (this.timer) return;
    const wait = Math.max(1, ((1 - this.tokens) / this.rate) * 1000);
    this.timer = setTimeout(() => {
      this.timer = null;
      while (this.q.length && this.take()) this.q.shift()();
      if (this.q.length) this.arm();
    }, wait);
  }
  clear() { this.q = []; if (this.timer) clearTimeout(this.timer); this.timer = null; }
}

// ------------------------------------------------------------------------------------------------
// Rooms: the pacing of moves (closed loop or Poisson arrivals) is the same for both targets.

// What both targets' players share: a move goes out when it is this player's turn and its room
// may move (the closed loop, or a paced arrival), after a think time if one is set.
class Player {
  tryMove() {
    if (!this.myTurn() || !this.room.mayMove()) return false;
    if (o.thinkMs > 0 && !o.rate) {
      this.thinking = true;
      setTimeout(() => { this.thinking = false; this.move(); }, o.thinkMs * (0.5 + this.rng()));
    } else {
      this.move();
    }
    return true;
  }
}

class RoomDriver {
  constructor(index) {
    this.index = index;
    this.players = [];
    this.pending = 0; // paced mode: arrivals not yet played
    this.playing = false;
  }
  // A player calls this when it may move now; returns true if it should move now.
  mayMove() {
    // Nobody moves while rooms are still being set up (for both targets alike): the load starts
    // with the warm-up, when every room is playing.
    if (phase !== 'warmup' && phase !== 'window') return false;
    if (!o.rate) return true;
    if (this.pending > 0) { this.pending--; return true; }
    return false;
  }
  arrival() {
    this.pending++;
    for (const p of this.players) if (p.tryMove()) return;
    stats.late++;
  }
}

// ------------------------------------------------------------------------------------------------
// Ours: docs/PROTOCOL.md over a plain WebSocket.

class OursPlayer extends Player {
  constructor(room, role, rng) {
    super();
    this.room = room; this.role = role; this.rng = rng;
    this.state = null; this.seat = null; this.roomId = null;
    this.inflight = null; // {game, version, sentAt}
    this.rematchFor = 0;
    this.thinking = false;
    this.bucket = new Bucket(o.paceRate, o.paceBurst);
  }
  open() {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${o.port}/ws?compact=${o.compact}`, { perMessageDeflate: false });
      this.ws = ws;
      this.onWelcome = resolve;
      ws.on('message', (data) => this.onMessage(data));
      ws.on('error', (e) => { if (!this.welcomed) { stats.connectFailures++; reject(e); } });
      ws.on('close', (code) => {
        if (phase !== 'drain' && phase !== 'done') { stats.closed++; countError(stats.notices, `close_${code}`); }
        if (!this.welcomed) reject(new Error(`closed ${code}`));
      });
    });
  }
  sendNow(obj) {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(obj));
  }
  send(obj) { this.bucket.send(() => this.sendNow(obj)); }
  onMessage(data) {
    const m = JSON.parse(data);
    switch (m.type) {
      case 'welcome': {
        this.welcomed = true;
        const l = m.limits;
        if (o.paceRate && l?.rate_per_second && o.paceRate > 0.95 * l.rate_per_second) {
          this.bucket.rate = 0.95 * l.rate_per_second;
          this.bucket.burst = Math.min(this.bucket.burst, 0.95 * l.rate_burst);
        }
        this.limits = l;
        this.onWelcome();
        break;
      }
      case 'joined':
        this.seat = m.seat; this.roomId = m.room;
        if (this.onJoined) { const f = this.onJoined; this.onJoined = null; f(m); }
        break;
      case 'state':
        this.state = m; this.changed();
        break;
      case 'delta': {
        const next = applyDelta(this.state, m);
        if (!next) { stats.syncs++; this.sendNow({ type: 'sync' }); break; }
        this.state = next; this.changed();
        break;
      }
      case 'error':
        countError(stats.errors, m.code);
        if (this.onJoined && (m.request === 'create' || m.request === 'join')) { const f = this.onJoinFail; this.onJoined = null; f(new Error(m.code)); }
        if (m.request === 'act' || ['stale_version', 'not_your_turn', 'illegal_action', 'game_over', 'rate_limited'].includes(m.code)) {
          this.inflight = null; // try again on the next state (or now, if it is still our turn)
          this.changed();
        }
        break;
      case 'notice': countError(stats.notices, m.code); break;
      default: break; // rematch_offer, presence, ok, chat...
    }
  }
  changed() {
    const s = this.state;
    if (!s) return;
    if (this.inflight && (s.game !== this.inflight.game || s.version !== this.inflight.version)) {
      if (s.game === this.inflight.game && s.version === this.inflight.version + 1) moveSeen(this.inflight.sentAt);
      this.inflight = null;
    }
    if (s.status === 'playing' && !this.room.playing && this.role === 0) { this.room.playing = true; startedRoom(); }
    if (s.status === 'finished' && this.rematchFor !== s.game && phase !== 'drain' && phase !== 'done') {
      this.rematchFor = s.game;
      if (this.role === 0) stats.gamesStarted++;
      this.send({ type: 'rematch' });
    }
    this.tryMove();
  }
  myTurn() {
    const s = this.state;
    return s && s.status === 'playing' && s.turn === this.seat && !this.inflight && !this.thinking && s.legal?.length;
  }
  move() {
    const s = this.state;
    if (!(s && s.status === 'playing' && s.turn === this.seat && !this.inflight)) return;
    const action = s.legal[Math.floor(this.rng() * s.legal.length)];
    const inflight = { game: s.game, version: s.version, sentAt: 0 };
    this.inflight = inflight;
    stats.movesSent++;
    this.bucket.send(() => { inflight.sentAt = now(); this.sendNow({ type: 'act', action, version: s.version }); });
  }
  create() {
    return new Promise((resolve, reject) => {
      this.onJoined = resolve; this.onJoinFail = reject;
      this.send({ type: 'create', variant: 'bomb', name: `p${this.room.index}a`, seat: 'random' });
    });
  }
  join(roomId) {
    return new Promise((resolve, reject) => {
      this.onJoined = resolve; this.onJoinFail = reject;
      this.send({ type: 'join', room: roomId, seat: 'any', name: `p${this.room.index}b` });
    });
  }
  close() { this.bucket.clear(); try { this.ws.close(1000); } catch {} }
  terminate() { try { this.ws.terminate(); } catch {} }
}

async function setupOurs(room, rng) {
  const a = new OursPlayer(room, 0, rng), b = new OursPlayer(room, 1, rng);
  room.players = [a, b];
  await Promise.all([a.open(), b.open()]);
  const joined = await a.create();
  await b.join(joined.room);
}

// ------------------------------------------------------------------------------------------------
// Colyseus: colyseus.js against colyseus_server.mjs.

const colyseus = new ColyseusClient(`ws://127.0.0.1:${o.port}`);

class ColyseusPlayer extends Player {
  constructor(room, role, rng) {
    super();
    this.room = room; this.role = role; this.rng = rng;
    this.r = null; this.side = -1;
    this.inflight = null; // {moves, sentAt}
    this.lastGame = 0;
    this.thinking = false;
    this.cells = new Uint8Array(64);
    this.bucket = new Bucket(o.paceRate, o.paceBurst);
  }
  attach(r) {
    this.r = r;
    r.onStateChange((s) => this.changed(s));
    r.onMessage('error', (m) => {
      countError(stats.errors, m?.code ?? 'error');
      this.inflight = null;
      this.changed(this.r.state);
    });
    r.onError((code, message) => countError(stats.errors, `room_error_${code}${message ? `:${message}` : ''}`));
    r.onLeave((code) => { if (phase !== 'drain' && phase !== 'done') { stats.closed++; countError(stats.notices, `leave_${code}`); } });
    if (r.state) this.changed(r.state);
  }
  changed(s) {
    if (!s || s.moves === undefined) return;
    if (this.side < 0) this.side = s.p0 === this.r.sessionId ? 0 : s.p1 === this.r.sessionId ? 1 : -1;
    if (this.inflight && s.moves !== this.inflight.moves) {
      if (s.moves === this.inflight.moves + 1) moveSeen(this.inflight.sentAt);
      this.inflight = null;
    }
    if (s.playing && !this.room.playing && this.role === 0) { this.room.playing = true; startedRoom(); }
    if (this.role === 0 && s.game !== this.lastGame) { if (this.lastGame) stats.gamesStarted++; this.lastGame = s.game; }
    this.tryMove();
  }
  myTurn() {
    const s = this.r?.state;
    return s && s.playing && this.side >= 0 && s.turn === this.side && !this.inflight && !this.thinking;
  }
  move() {
    const s = this.r.state;
    if (!(s && s.playing && s.turn === this.side && !this.inflight)) return;
    const board = s.board, cells = this.cells;
    for (let i = 0; i < 64; i++) cells[i] = board[i];
    const moves = legalMoves(cells, this.side);
    if (!moves.length) return; // the server resets such a board before it is anyone's turn
    const k = 2 * Math.floor(this.rng() * (moves.length / 2));
    const msg = { from: moves[k], to: moves[k + 1] };
    const inflight = { moves: s.moves, sentAt: 0 };
    this.inflight = inflight;
    stats.movesSent++;
    this.bucket.send(() => { inflight.sentAt = now(); this.r.send('move', msg); });
  }
  close() { this.bucket.clear(); try { this.r?.connection.close(1000); } catch {} }
  terminate() { try { this.r?.connection.transport.ws.terminate(); } catch {} }
}

// A matchmaking request (HTTP) tried up to 3 times: "socket hang up" happens now and then on a
// loaded Node server (a kept-alive HTTP socket closed by the server as the client reuses it).
async function retried(what, f) {
  for (let attempt = 1; ; attempt++) {
    try { return await f(); } catch (e) {
      countError(stats.setupRetries, `${what}: ${e.message}`);
      if (attempt >= 3) { stats.connectFailures++; throw e; }
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}

async function setupColyseus(room, rng) {
  const a = new ColyseusPlayer(room, 0, rng), b = new ColyseusPlayer(room, 1, rng);
  room.players = [a, b];
  a.attach(await retried('create', () => colyseus.create('board')));
  b.attach(await retried('joinById', () => colyseus.joinById(a.r.roomId)));
}

// ------------------------------------------------------------------------------------------------
// The run

let started = 0;
let allStarted = null;
const allStartedP = new Promise((r) => { allStarted = r; });
function startedRoom() { if (++started === rooms) allStarted(); }

const hardLimit = (o.setupTimeout + o.warmup + o.duration + 15) * 1000;
const hardTimer = setTimeout(() => {
  log(`hard time limit (${hardLimit / 1000} s) reached: giving up`);
  report({ problem: 'hard time limit reached' });
  for (const r of driverRooms) for (const p of r.players) p.terminate();
  process.exit(1);
}, hardLimit);

const driverRooms = Array.from({ length: rooms }, (_, i) => new RoomDriver(i));
let reported = false;

function report(extra = {}) {
  if (reported) return;
  reported = true;
  latencies.sort((a, b) => a - b);
  const secs = (windowEnd - windowStart) / 1000;
  const serverCpu = cpuEnd != null && cpuStart != null ? cpuEnd - cpuStart : null;
  const tool = toolCpuEnd ? (toolCpuEnd.user + toolCpuEnd.system) / 1e6 : null;
  const rep = {
    target: o.target, compact: o.target === 'ours' ? o.compact : null, clients: o.clients, rooms,
    mode: o.rate ? 'paced' : 'closed', rate: o.rate || null, think_ms: o.thinkMs,
    pace: o.paceRate ? { rate: o.paceRate, burst: o.paceBurst } : null,
    window_s: secs || null, moves: windowMoves, moves_per_s: secs ? windowMoves / secs : null,
    latency_ms: {
      p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), p999: percentile(latencies, 0.999),
      max: latencies.length ? latencies[latencies.length - 1] : null,
    },
    server_cpu_s: serverCpu,
    server_cpu_us_per_move: serverCpu != null && windowMoves ? (serverCpu * 1e6) / windowMoves : null,
    server_cpu_pct: serverCpu != null && secs ? (100 * serverCpu) / secs : null,
    tool_cpu_pct: tool != null && secs ? (100 * tool) / secs : null,
    server_rss: { before: rss0, after_setup: rss1, end: rss2 },
    server_rss_bytes_per_connection: rss0 != null && rss1 != null ? (rss1 - rss0) / o.clients : null,
    setup_s: setupSecs, games_ended: stats.gamesStarted, moves_sent: stats.movesSent,
    paced_sends: stats.paced, late_arrivals: stats.late, syncs: stats.syncs,
    errors: stats.errors, notices: stats.notices, setup_retries: stats.setupRetries, connect_failures: stats.connectFailures, closed_by_server: stats.closed,
    load_average_end: loadavg(), ...extra,
  };
  process.stdout.write(JSON.stringify(rep) + '\n');
}

let cpuStart = null, cpuEnd = null, toolCpuEnd = null, rss0 = null, rss1 = null, rss2 = null, setupSecs = null;

async function main() {
  rss0 = o.serverPid ? rssBytes(o.serverPid) : null;
  const t0 = now();
  log(`${o.clients} clients, ${rooms} rooms, ${o.rate ? `paced ${o.rate} moves/s` : 'closed loop'}; load average ${loadavg()}`);
  // Set the rooms up, connectParallel at a time.
  let next = 0, failed = 0;
  const setupDeadline = t0 + o.setupTimeout * 1000;
  const worker = async () => {
    while (next < rooms && now() < setupDeadline) {
      const i = next++;
      const rng = mulberry32(o.seed * 1000003 + i);
      try {
        await (o.target === 'ours' ? setupOurs : setupColyseus)(driverRooms[i], rng);
      } catch (e) {
        failed++;
        if (failed <= 3) log(`room ${i} setup failed: ${e.message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.connectParallel, rooms) }, worker));
  const timeout = new Promise((r) => setTimeout(() => r('timeout'), Math.max(0, setupDeadline - now())));
  const ok = failed === 0 ? await Promise.race([allStartedP.then(() => 'ok'), timeout]) : 'failed';
  setupSecs = (now() - t0) / 1000;
  if (ok !== 'ok') {
    log(`setup did not complete (${started}/${rooms} rooms playing, ${failed} failed)`);
    phase = 'drain';
    await shutdown();
    report({ problem: `setup: ${started}/${rooms} rooms playing, ${failed} failed` });
    return 1;
  }
  rss1 = o.serverPid ? rssBytes(o.serverPid) : null;
  log(`all ${rooms} rooms playing after ${setupSecs.toFixed(1)} s; warm-up ${o.warmup} s`);
  phase = 'warmup';
  // Paced mode: Poisson arrivals at o.rate over all rooms (a uniformly random room each: the same
  // as a Poisson process of rate R/rooms per room).
  let arrivalTimer = null;
  if (o.rate) {
    const rng = mulberry32(o.seed ^ 0x5eed);
    let nextArrival = now();
    const tick = () => {
      const t = now();
      while (nextArrival <= t) {
        driverRooms[Math.floor(rng() * rooms)].arrival();
        nextArrival += (-Math.log(1 - rng()) / o.rate) * 1000;
      }
      arrivalTimer = setTimeout(tick, Math.max(1, Math.min(10, nextArrival - now())));
    };
    tick();
  } else {
    for (const r of driverRooms) for (const p of r.players) p.tryMove();
  }
  await new Promise((r) => setTimeout(r, o.warmup * 1000));
  // The window.
  windowStart = now();
  cpuStart = o.serverPid ? procStat(o.serverPid) : null;
  const toolStart = process.cpuUsage();
  phase = 'window';
  await new Promise((r) => setTimeout(r, o.duration * 1000));
  windowEnd = now();
  cpuEnd = o.serverPid ? procStat(o.serverPid) : null;
  toolCpuEnd = process.cpuUsage(toolStart);
  rss2 = o.serverPid ? rssBytes(o.serverPid) : null;
  phase = 'drain';
  if (arrivalTimer) clearTimeout(arrivalTimer);
  log(`window done: ${windowMoves} moves in ${((windowEnd - windowStart) / 1000).toFixed(2)} s; load average ${loadavg()}`);
  await new Promise((r) => setTimeout(r, 500)); // moves in flight land (not counted past the window)
  await shutdown();
  report();
  return 0;
}

async function shutdown() {
  phase = 'drain';
  for (const r of driverRooms) for (const p of r.players) p.close();
  await new Promise((r) => setTimeout(r, 1500));
  phase = 'done';
  for (const r of driverRooms) for (const p of r.players) p.terminate();
}

main().then((code) => {
  clearTimeout(hardTimer);
  const errs = Object.values(stats.errors).reduce((a, b) => a + b, 0);
  process.exit(code || (errs || stats.closed || stats.connectFailures ? 1 : 0));
}, (e) => {
  log(`failed: ${e.stack || e}`);
  report({ problem: String(e) });
  process.exit(1);
});
