// The puzzles' page (docs/PUZZLES.md) driven as a person does, for puzzles.test.mjs and
// both/puzzles.mjs: a server of the tests' own (it serves web/data/puzzles.json), the collection
// read from its API, a puzzle's turn played by clicks on the board, and a wrong turn found with the
// rules core (web/engine.js) in node.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { T, squarePoint, startServer } from './helpers.mjs';
import { importWeb } from './web_modules.mjs';

const { loadEngine, sameAction } = await importWeb('engine.js');
const engine = await loadEngine({ wasmBinary: readFileSync(new URL('../../web/engine/core.wasm', import.meta.url)) });

/** A server of the file's own: games in memory, the collection from the web root. */
export function puzzlesServer() {
  return startServer(['--memory']);
}

/** The collection's summaries, and the whole puzzles by id on demand. */
export async function collection(base) {
  const res = await fetch(`${base}/api/puzzles`);
  assert.equal(res.status, 200, 'GET /api/puzzles');
  const list = (await res.json()).puzzles;
  assert.ok(list.length >= 2, 'the collection has puzzles to test with');
  return list;
}

export async function fetchPuzzle(base, id) {
  const res = await fetch(`${base}/api/puzzles/${id}`);
  assert.equal(res.status, 200, `GET /api/puzzles/${id}`);
  return res.json();
}

/** The puzzle board's data-* attributes (puzzle, step, mode, position, turn, selected, ...). */
export function pzBoard(p) {
  return p.eval(() => ({ ...document.querySelector('#pz-board').dataset }));
}

/** Waits until the puzzle board's data-* attributes are all as `want` says (compared as strings). */
export function waitPz(p, want, timeout = T) {
  return p.waitFn(
    (w) => {
      const d = document.querySelector('#pz-board')?.dataset;
      return !!d && Object.entries(w).every(([k, v]) => d[k] === String(v));
    },
    want,
    { timeout, polling: 25 },
  );
}

async function clickSquare(p, sq) {
  const at = squarePoint(await p.box('#pz-board'), await pzBoard(p), sq);
  await p.mouse(at.x, at.y);
}

/** Plays one turn (its actions, as the line writes them) by clicking the board as a person does:
 *  a piece, then each square it hops to; a Kaboom column (a bomb with the switch on), a bomb. */
export async function playTurn(p, actions) {
  for (const [i, a] of actions.entries()) {
    if (a.kind === 'end_turn') await p.click('#pz-end-turn');
    else if (a.kind === 'detonate') await clickSquare(p, a.at);
    else if (a.kind === 'drop') {
      const bomb = a.piece === 'bomb';
      if ((await p.eval(() => document.querySelector('#pz-bomb').checked)) !== bomb) await p.click('#pz-bomb-box');
      const rows = Number((await pzBoard(p)).rows);
      await clickSquare(p, [a.column, rows - 1]); // any cell of the column drops there
    } else {
      if (i === 0) {
        await clickSquare(p, a.from);
        await waitPz(p, { selected: a.from.join(',') });
      }
      await clickSquare(p, a.to);
      // A hop that does not end the turn leaves the piece picked where it landed.
      if (i < actions.length - 1) await waitPz(p, { selected: a.to.join(',') });
    }
  }
}

/** The puzzle's start position as the core holds it. */
function startGame(puzzle) {
  const w = puzzle.position;
  return engine.position(puzzle.variant, puzzle.options ?? {}, {
    turn: w.turn,
    pieces: w.pieces,
    bombs: w.bombs,
  });
}

/** Every complete turn of the side to move in `game` (a multi-jump's hops together). */
function allTurns(game, side, prefix = []) {
  const out = [];
  const legal = game.state().legal;
  for (let i = 0; i < legal.length; i++) {
    const r = game.apply(i);
    const s = r.game.state();
    const actions = [...prefix, legal[i]];
    if (s.mid_turn && s.turn === side && !s.result) out.push(...allTurns(r.game, side, actions));
    else out.push(actions);
    r.game.free();
  }
  return out;
}

const sameTurn = (a, b) => a.length === b.length && a.every((x, i) => sameAction(x, b[i]));

/** A legal first turn of the puzzle other than the line's (null when the line's is the only one). */
export function wrongTurn(puzzle) {
  const game = startGame(puzzle);
  const turns = allTurns(game, puzzle.turn);
  game.free();
  // A turn with no bomb switch to set is the simplest to click.
  const others = turns.filter((t) => !sameTurn(t, puzzle.line[0].actions));
  return others.find((t) => t.every((a) => a.piece !== 'bomb')) ?? others[0] ?? null;
}
