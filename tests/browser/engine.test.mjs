// The rules core compiled to WebAssembly (web/engine.js, web/engine/core.wasm) against the native
// one: perft of every variant against `bombcheckers perft`, and random games of every variant
// played on the server (one-screen rooms, over a real socket) and in the WebAssembly core side by
// side, each state's rule fields compared byte for byte as the server wrote them. Needs BC_URL and
// BC_BINARY (tests/browser/run.sh sets them).
//   tests/browser/run.sh build/bombcheckers engine.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';

import { importWeb } from './web_modules.mjs';

const { loadEngine } = await importWeb('engine.js');
const engine = await loadEngine({ wasmBinary: readFileSync(new URL('../../web/engine/core.wasm', import.meta.url)) });

const BASE = process.env.BC_URL;
const bin = process.env.BC_BINARY;

// A small seeded generator, so that a failure comes back the same.
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * The text of the value of top-level field `name` in the JSON object `text`, as written: the bytes
 * to compare. Strings are skipped whole, so a name inside one is never taken for a field.
 */
function fieldText(text, name) {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = skipString(text, i);
      if (depth === 1 && text.slice(i, end) === `"${name}"` && text[end] === ':') return valueAt(text, end + 1);
      i = end - 1;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return undefined;
}

function skipString(text, i) {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j + 1;
  }
  return text.length;
}

function valueAt(text, i) {
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (c === '"') j = skipString(text, j) - 1;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    if (depth === 0 && (c === ',' || c === '}' || c === ']')) {
      return text.slice(i, c === ',' || depth < 0 ? j : j + 1);
    }
    if (depth < 0) return text.slice(i, j);
  }
  return text.slice(i);
}

// The state fields the rules decide, in the server's words.
const FIELDS = ['turn', 'board', 'legal', 'result', 'bombs', 'mid_turn', 'jumper'];

/** One socket to the server, its messages as texts in order. */
async function connect() {
  const ws = new WebSocket(`${BASE.replace(/^http/, 'ws')}/ws`);
  const queue = [];
  let wake = null;
  let closed = false;
  ws.on('message', (data) => {
    queue.push(String(data));
    wake?.();
  });
  ws.on('close', () => {
    closed = true;
    wake?.();
  });
  await new Promise((ok, fail) => {
    ws.once('open', ok);
    ws.once('error', fail);
  });
  const next = async (type) => {
    const until = Date.now() + 10000;
    for (;;) {
      while (queue.length) {
        const text = queue.shift();
        const m = JSON.parse(text);
        if (m.type === 'error') throw new Error(`server error: ${text}`);
        if (m.type === type) return { m, text };
      }
      const left = until - Date.now();
      if (closed) throw new Error(`the socket closed before a ${type}`);
      if (left <= 0) throw new Error(`no ${type} within 10 s`);
      await new Promise((ok) => {
        wake = ok;
        setTimeout(ok, left);
      });
      wake = null;
    }
  };
  return { ws, next, send: (m) => ws.send(JSON.stringify(m)) };
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/**
 * Plays one random game of `variant` in a one-screen room and in the engine, comparing every state
 * the server sends with the engine's; at most `cap` actions (then the side to move resigns). The
 * number of states compared.
 */
async function playBoth(conn, variant, options, seed, cap) {
  const rnd = random(seed);
  conn.send({ type: 'create', variant, options, seat: 'both', name: 'Engine test' });
  await conn.next('joined');
  let { m, text } = await conn.next('state');
  let game = engine.start(variant, options);
  let compared = 0;
  for (let n = 0; ; n++) {
    const mine = game.text();
    for (const f of FIELDS) {
      assert.equal(
        fieldText(mine, f),
        fieldText(text, f),
        `${variant} ${JSON.stringify(options)} seed ${seed}, version ${m.version}: "${f}" differs`,
      );
    }
    compared++;
    if (m.status !== 'playing') break;
    if (n >= cap) {
      conn.send({ type: 'resign' });
      await conn.next('state');
      break;
    }
    const legal = game.state().legal;
    const i = Math.floor(rnd() * legal.length);
    // Under the server's 20 messages a second per connection.
    await sleep(52);
    conn.send({ type: 'act', version: m.version, action: legal[i] });
    ({ m, text } = await conn.next('state'));
    const next = game.apply(i).game;
    game.free();
    game = next;
  }
  game.free();
  return compared;
}

const GAMES = [
  ['bomb', {}],
  ['classic', {}],
  ['triple_king', {}],
  ['kaboom', {}],
  ['kaboom', { width: 12, height: 12, connect: 5, bombs: 3, misere: true, superbomb: true }],
  ['kaboom', { width: 4, height: 4, connect: 3, bombs: 2, superbomb: true }],
];

test('the WebAssembly core counts the same perft as the native one, in every variant', () => {
  for (const [variant, depth] of [
    ['bomb', 6],
    ['classic', 7],
    ['triple_king', 6],
    ['kaboom', 5],
  ]) {
    const native = JSON.parse(
      execFileSync(bin, ['perft', '--variant', variant, '--depth', String(depth), '--json'], { encoding: 'utf8' }),
    );
    const g = engine.start(variant);
    const t0 = performance.now();
    const leaves = g.perft(depth);
    const ms = performance.now() - t0;
    g.free();
    assert.equal(leaves, native.nodes.at(-1), `${variant} perft ${depth}`);
    console.log(
      `# ${variant} perft ${depth}: ${leaves} leaves in ${ms.toFixed(0)} ms (native ${(native.seconds * 1000).toFixed(0)} ms)`,
    );
  }
});

test("random games of every variant: each state of the server is the WebAssembly core's, byte for byte", async () => {
  // Three sockets at once, each under its own rate limit (the address's is 60 a second).
  const jobs = [];
  for (let k = 0; k < 3; k++) jobs.push([]);
  let seed = 1;
  for (let round = 0; round < 2; round++) {
    for (const [variant, options] of GAMES) jobs[(seed - 1) % 3].push([variant, options, seed++]);
  }
  const conns = await Promise.all(jobs.map(() => connect()));
  let counts;
  try {
    counts = await Promise.all(
      jobs.map(async (list, k) => {
        let states = 0;
        for (const [variant, options, s] of list) states += await playBoth(conns[k], variant, options, s, 90);
        return states;
      }),
    );
  } finally {
    // A failure on one socket ends the others' games too: the file ends with its first failure.
    for (const c of conns) c.ws.close();
  }
  const states = counts.reduce((a, b) => a + b, 0);
  console.log(`# ${jobs.flat().length} games, ${states} states compared`);
  assert.ok(states > 300, 'the games were played');
});

test('a custom position is read as the server reads it, and a refused one says why', () => {
  assert.deepEqual(engine.sides('bomb'), ['fire', 'water']);
  assert.deepEqual(engine.sides('kaboom'), ['x', 'o']);
  const g = engine.position(
    'bomb',
    {},
    {
      turn: 'water',
      pieces: [
        { at: [1, 1], side: 'fire', kind: 'bomb', rank: 'man' },
        { at: [2, 2], side: 'water', kind: 'shield', rank: 'king' },
      ],
    },
  );
  const s = g.state();
  assert.equal(s.turn, 'water');
  assert.deepEqual(
    s.board.pieces.map((p) => p.at),
    [
      [1, 1],
      [2, 2],
    ],
  );
  assert.ok(s.legal.length > 0);
  g.free();
  assert.throws(
    () =>
      engine.position(
        'bomb',
        {},
        {
          turn: 'fire',
          pieces: [{ at: [0, 1], side: 'fire', kind: 'normal', rank: 'man' }],
        },
      ),
    /./,
    'a piece on a light square is refused',
  );
  assert.throws(() => engine.start('chess'), /no such variant/);
  assert.throws(() => engine.start('kaboom', { width: 99 }), /width/);
});

test("a premove's check: legal after some reply of the side to move, or after none", () => {
  const g = engine.start('bomb');
  const replies = g.replies();
  assert.equal(replies.length, 7, 'bomb has seven first turns (perft 1)');
  for (const r of replies) r.free();
  const pos = { variant: 'bomb', ...g.state(), pieces: g.state().board.pieces };
  g.free();
  // Water's f6-e5 (a man's step forwards) after any of fire's turns; a step backwards after none.
  assert.equal(engine.legalAfterAReply(pos, {}, [{ kind: 'step', from: [5, 5], to: [4, 4] }]), true);
  assert.equal(engine.legalAfterAReply(pos, {}, [{ kind: 'step', from: [5, 5], to: [6, 6] }]), false);
  assert.equal(engine.legalAfterAReply({ ...pos, pieces: [{ at: [0, 1], side: 'fire' }] }, {}, []), null);
});
