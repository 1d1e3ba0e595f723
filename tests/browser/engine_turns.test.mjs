// The position after a turn as the analysis board gets it (web/engine.js's applyTurn: the rules
// core compiled to WebAssembly, on the page's own positions), against the native rules: random
// walks through every variant where each turn is also played by `bombcheckers analyse --fen P
// --moves T`, which prints the position after it. The walks favour captures, bombs and
// detonations. Needs BC_BINARY (tests/browser/run.sh sets it).
//   BC_BINARY=build/bombcheckers node --test tests/browser/engine_turns.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { importWeb } from './web_modules.mjs';

const { loadEngine } = await importWeb('engine.js');
const engine = await loadEngine({ wasmBinary: readFileSync(new URL('../../web/engine/core.wasm', import.meta.url)) });
const applyTurn = (pos, actions, options) => engine.applyTurn(pos, actions, options);
const pt = await importWeb('position_text.js');
const bin = process.env.BC_BINARY;

function cli(variant, options, fen, moves) {
  const opts = Object.entries(options).flatMap(([k, v]) => ['--opt', `${k}=${typeof v === 'boolean' ? Number(v) : v}`]);
  try {
    return execFileSync(
      bin,
      ['analyse', '--variant', variant, ...opts, '--fen', fen, '--moves', moves, '--time-ms', '1', '--level', '1'],
      { encoding: 'utf8', timeout: 20000, stdio: ['ignore', 'pipe', 'pipe'] },
    );
  } catch (e) {
    return String(e.stderr ?? '') + String(e.stdout ?? '');
  }
}

/** The legal turns of a position, as the CLI writes them (its refusal of a turn lists them). */
function legalTurns(variant, options, fen) {
  const m = /legal:(.*)/.exec(cli(variant, options, fen, 'zz'));
  return m ? m[1].trim().split(/\s+/).filter(Boolean) : [];
}

const square = (s) => [s.charCodeAt(0) - 97, Number(s.slice(1)) - 1];

/** A turn's text (ai_notation.hpp) as the protocol's actions. */
function actionsOf(turn) {
  if (turn === 'end') return [{ kind: 'end_turn' }];
  if (/^B?[a-l]$/.test(turn))
    return [{ kind: 'drop', column: turn.at(-1).charCodeAt(0) - 97, piece: turn.length > 1 ? 'bomb' : 'normal' }];
  if (turn.startsWith('*')) return [{ kind: 'detonate', at: square(turn.slice(1)) }];
  if (turn.includes('-')) {
    const [from, to] = turn.split('-').map(square);
    return [{ kind: 'step', from, to }];
  }
  const squares = turn.split('x').map(square);
  return squares.slice(1).map((to, i) => ({ kind: 'jump', from: squares[i], to }));
}

// A small seeded generator, so that a failure comes back the same.
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Turns of interest first: captures, detonations and bomb drops are picked three times as often. */
function pick(turns, rnd) {
  const weighted = turns.flatMap((t) => (/x|\*|^B/.test(t) ? [t, t, t] : [t]));
  return weighted[Math.floor(rnd() * weighted.length)];
}

function walk(variant, options, startFen, seed, steps) {
  const rnd = random(seed);
  let fen = startFen === 'start' ? cli(variant, options, 'start', '').split(/\s/)[0] : startFen;
  let played = 0;
  const seen = { captures: 0, blasts: 0, crownings: 0 };
  for (let i = 0; i < steps; i++) {
    const turns = legalTurns(variant, options, fen);
    if (!turns.length) break;
    const turn = pick(turns, rnd);
    const theirs = cli(variant, options, fen, turn).split(/\s/)[0];
    const before = pt.parseFen(fen, variant, options);
    let after = applyTurn(before, actionsOf(turn), options);
    // B5: a capture sequence the CLI's turn stops early ends with an explicit end_turn, as in the
    // server's lists of turns.
    if (after && after.pos.turn === before.turn && turn.includes('x')) {
      after = applyTurn(before, [...actionsOf(turn), { kind: 'end_turn' }], options);
    }
    assert.ok(after, `${variant} ${JSON.stringify(options)}: the engine refused ${turn} from ${fen}`);
    const ours = pt.formatFen(after.pos);
    const crowns = (pos) =>
      pos.pieces.filter((p) => p.rank !== 'man').length + pos.pieces.filter((p) => p.rank === 'triple_king').length;
    if (!/^[a-z]+:/.test(theirs)) break; // the game is over: the CLI refuses the position after it
    assert.equal(ours, theirs, `${variant} ${JSON.stringify(options)}: ${turn} from ${fen}`);
    fen = theirs;
    played++;
    seen.captures += after.captured.length > 0;
    seen.blasts += after.exploded.length > 0;
    seen.crownings += crowns(after.pos) > crowns(before);
  }
  console.log(
    `${variant} ${JSON.stringify(options)} from ${startFen}, seed ${seed}: ${played} turns, ${JSON.stringify(seen)}`,
  );
  return { played, ...seen };
}

const skip = bin ? false : 'BC_BINARY is not set (the rules come from bombcheckers analyse)';

/** Walks from each start; asserts the turns compared and that each kind of event came up. */
function walks(list, want) {
  const total = { played: 0, captures: 0, blasts: 0, crownings: 0 };
  for (const [variant, options, start, seed, steps] of list) {
    for (const [k, v] of Object.entries(walk(variant, options, start, seed, steps))) total[k] += v;
  }
  for (const [k, v] of Object.entries(want))
    assert.ok(total[k] >= v, `${k}: ${total[k]} (want ${v}): ${JSON.stringify(total)}`);
}

test('bomb checkers: steps, captures, crowning, blasts (shields survive)', { skip }, () => {
  walks(
    [
      ['bomb', {}, 'start', 1, 60],
      ['bomb', {}, 'start', 2, 60],
      ['bomb', {}, 'start', 3, 60],
      // Bombs and kings of both sides close together, to blow up and crown early.
      ['bomb', {}, 'fire:Bc3,Se3,Kg3,Bb4,d4:Sc5,Be5,Bd6,Kb6,Sf6,g7', 5, 30],
      ['bomb', {}, 'water:KBa1,Sc3,e3:Bb4,KSd4,Bf4,Kh6', 6, 30],
    ],
    { played: 150, captures: 10, blasts: 5, crownings: 2 },
  );
});

test('classic and triple-king checkers: multi-jumps, flying kings, triple kings', { skip }, () => {
  walks(
    [
      ['classic', {}, 'start', 1, 50],
      ['classic', {}, 'start', 2, 50],
      ['triple_king', {}, 'start', 1, 60],
      ['triple_king', {}, 'start', 2, 60],
      ['triple_king', {}, 'black:Ka1,Kc1,e3,Tg1:b6,d6,Kf6,Th8,c7', 7, 40],
      ['triple_king', {}, 'white:Ka3,c1,e1:Kb8,Kd8,f6', 9, 30],
    ],
    { played: 150, captures: 10, crownings: 3 },
  );
});

test('kaboom: drops, bombs, detonations and their chains, superbombs', { skip }, () => {
  walks(
    [
      ['kaboom', { bombs: 4, connect: 5 }, 'start', 1, 40],
      ['kaboom', { bombs: 4, connect: 5 }, 'start', 2, 40],
      ['kaboom', { width: 5, height: 5, bombs: 3, superbomb: true, connect: 5 }, 'start', 4, 30],
      ['kaboom', { width: 5, height: 5, bombs: 3, superbomb: true, connect: 5 }, 'start', 5, 30],
      ['kaboom', { width: 4, height: 4, connect: 4 }, 'x:Ba1,Bb1,c1,Ba2:d1,Bb2,Bc2,a3:2,2', 8, 12],
    ],
    { played: 60, blasts: 5 },
  );
});
