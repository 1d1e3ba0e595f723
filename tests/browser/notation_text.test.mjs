// Unit tests of web/notation.js (no browser, no server): the originals' notations as the page shows
// them. T8's (row, column) and Gamesman's cells both ways for every square, turns in each notation,
// the board's edge labels (flipped too), Gamesman strings and the plain-text exports.
//   node --test tests/browser/notation_text.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importWeb } from './web_modules.mjs';

const nt = await importWeb('notation.js');

test('T8: (row, column) of every square, row 0 at the top, and back', () => {
  for (let x = 0; x < 8; x++) {
    for (let y = 0; y < 8; y++) {
      const name = nt.rowColName([x, y]);
      assert.equal(name, `(${7 - y},${x})`);
      assert.deepEqual(nt.parseRowCol(name), [x, y], name);
      assert.deepEqual(nt.parseRowCol(`( ${7 - y} , ${x} )`), [x, y], 'spaces are allowed');
    }
  }
  assert.equal(nt.rowColName([0, 7]), '(0,0)', 'the top left corner');
  assert.equal(nt.rowColName([7, 0]), '(7,7)', 'the bottom right corner');
  assert.equal(nt.rowColName([2, 2]), '(5,2)');
  // The original document's example: the 7th square of the 2nd row is (1,6).
  assert.deepEqual(nt.parseRowCol('(1,6)'), [6, 6]);
  for (const bad of ['(8,0)', '(0,8)', '1,6', '(1;6)', '(-1,2)', '']) assert.equal(nt.parseRowCol(bad), null, bad);
});

test('Gamesman cells: columns from 1, rows from 1 at the top, on boards of several sizes', () => {
  for (const [width, height] of [
    [7, 6],
    [9, 7],
    [4, 4],
    [12, 12],
  ]) {
    for (let x = 0; x < width; x++) {
      for (let y = 0; y < height; y++) {
        const cell = nt.gamesmanCell([x, y], height);
        assert.deepEqual(cell, { col: x + 1, row: height - y });
        assert.deepEqual(nt.fromGamesmanCell(cell, { width, height }), [x, y]);
      }
    }
    for (const off of [
      { col: 0, row: 1 },
      { col: width + 1, row: 1 },
      { col: 1, row: 0 },
      { col: 1, row: height + 1 },
    ]) {
      assert.equal(nt.fromGamesmanCell(off, { width, height }), null, JSON.stringify(off));
    }
  }
});

test('the notations each variant offers, and the default when none (or an unknown one) is kept', () => {
  assert.deepEqual(
    nt.notationChoices('triple_king').map((n) => n.id),
    ['algebraic', 'rowcol'],
  );
  assert.deepEqual(
    nt.notationChoices('kaboom').map((n) => n.id),
    ['standard', 'gamesman'],
  );
  assert.deepEqual(nt.notationChoices('bomb'), []);
  assert.deepEqual(nt.notationChoices('classic'), []);
  assert.equal(nt.notationOf('triple_king', null), 'algebraic');
  assert.equal(nt.notationOf('triple_king', 'rowcol'), 'rowcol');
  assert.equal(nt.notationOf('triple_king', 'gamesman'), 'algebraic', 'not a checkers notation');
  assert.equal(nt.notationOf('kaboom', 'gamesman'), 'gamesman');
  assert.equal(nt.notationOf('kaboom', 'nonsense'), 'standard');
  assert.equal(nt.notationOf('classic', 'rowcol'), 'algebraic', 'only triple-king checkers offers it');
});

const step = (from, to) => ({ kind: 'step', from, to });
const jump = (from, to) => ({ kind: 'jump', from, to });

test('checkers turns: steps and captures in a1-h8 and in (row, column)', () => {
  const move = { side: 'black', actions: [step([2, 2], [3, 3])] };
  assert.equal(nt.formatTurn(move), 'c3–d4');
  assert.equal(nt.formatTurn(move, 'rowcol'), '(5,2)–(4,3)');
  const capture = { side: 'black', actions: [jump([0, 2], [2, 4]), jump([2, 4], [4, 6]), { kind: 'end_turn' }] };
  assert.equal(nt.formatTurn(capture), 'a3×c5×e7');
  assert.equal(nt.formatTurn(capture, 'rowcol'), '(5,0)×(3,2)×(1,4)');
  assert.equal(nt.formatTurn({ side: 'white', actions: [] }, 'rowcol'), '…');
});

test('Kaboom turns: drops, bomb drops and detonations, standard and Gamesman', () => {
  const dims = { width: 7, height: 6 };
  const drop = { side: 'x', actions: [{ kind: 'drop', column: 3, piece: 'normal' }] };
  const bombX = { side: 'x', actions: [{ kind: 'drop', column: 2, piece: 'bomb' }] };
  const bombO = { side: 'o', actions: [{ kind: 'drop', column: 0, piece: 'bomb' }] };
  const boom = { side: 'x', actions: [{ kind: 'detonate', at: [2, 0] }] };
  assert.equal(nt.formatTurn(drop, 'standard', dims), '↓4');
  assert.equal(nt.formatTurn(bombX, 'standard', dims), 'bomb ↓3');
  assert.equal(nt.formatTurn(boom, 'standard', dims), 'detonate c1');
  assert.equal(nt.formatTurn(drop, 'gamesman', dims), '4');
  assert.equal(nt.formatTurn(bombX, 'gamesman', dims), '3*');
  assert.equal(nt.formatTurn(bombO, 'gamesman', dims), '1@');
  assert.equal(nt.formatTurn(boom, 'gamesman', dims), 'detonate col 3 row 6');
  assert.equal(nt.formatTurn(boom, 'gamesman', { width: 9, height: 7 }), 'detonate col 3 row 7');
});

test('edge labels in screen order, flipped too; Kaboom has them only in Gamesman', () => {
  const up = nt.edgeLabels('triple_king', 'rowcol', {}, false);
  assert.deepEqual(up, {
    cols: ['0', '1', '2', '3', '4', '5', '6', '7'],
    rows: ['0', '1', '2', '3', '4', '5', '6', '7'],
  });
  const down = nt.edgeLabels('triple_king', 'rowcol', {}, true);
  assert.deepEqual(down, {
    cols: ['7', '6', '5', '4', '3', '2', '1', '0'],
    rows: ['7', '6', '5', '4', '3', '2', '1', '0'],
  });
  assert.deepEqual(nt.edgeLabels('triple_king', 'algebraic', {}, false), {
    cols: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
    rows: ['8', '7', '6', '5', '4', '3', '2', '1'],
  });
  assert.deepEqual(nt.edgeLabels('bomb', 'algebraic', {}, true).cols, ['h', 'g', 'f', 'e', 'd', 'c', 'b', 'a']);
  assert.equal(nt.edgeLabels('kaboom', 'standard', { width: 7, height: 6 }), null);
  assert.deepEqual(
    nt.edgeLabels('kaboom', 'gamesman', { width: 9, height: 7 }, true),
    { cols: ['1', '2', '3', '4', '5', '6', '7', '8', '9'], rows: ['1', '2', '3', '4', '5', '6', '7'] },
    'never flipped',
  );
  assert.equal(nt.edgeWords(up), 'Columns 0 to 7 from the left, rows 0 to 7 from the top.');
  assert.equal(nt.edgeWords(null), '');
});

/** A Kaboom snapshot as the server sends it. */
const snap = (turn, bombs, pieces, width = 7, height = 6) => ({
  turn,
  bombs,
  board: {
    width,
    height,
    pieces: pieces.map(([x, y, side, kind = 'normal']) => ({ at: [x, y], side, kind, rank: 'man' })),
  },
});

test('Gamesman strings of states, and a game as its sequence of them', () => {
  const start = snap('x', { x: 1, o: 1 }, []);
  const one = snap('o', { x: 1, o: 1 }, [[3, 0, 'x']]);
  const two = snap('x', { x: 1, o: 1 }, [
    [3, 0, 'x'],
    [3, 1, 'o'],
  ]);
  const three = snap('o', { x: 0, o: 1 }, [
    [3, 0, 'x'],
    [3, 1, 'o'],
    [2, 0, 'x', 'bomb'],
  ]);
  const blank = '-------';
  assert.equal(nt.gamesmanOf(start), `(x 1 1 ${Array(6).fill(blank).join(' ')})`);
  assert.equal(nt.gamesmanOf(three), `(o 0 1 ${Array(4).fill(blank).join(' ')} ---o--- --*x---)`);
  // A finished game's last state may name no side to move: the other side of the one before.
  const last = {
    ...snap(null, { x: 0, o: 1 }, [
      [3, 0, 'x'],
      [3, 1, 'o'],
      [2, 0, 'x', 'bomb'],
      [4, 0, 'o', 'bomb'],
    ]),
  };
  const seq = nt
    .gamesmanSequence(
      new Map([
        [3, three],
        [0, start],
        [2, two],
        [1, one],
        [4, last],
      ]),
    )
    .split('\n');
  assert.deepEqual(seq, [
    `(x 1 1 ${Array(6).fill(blank).join(' ')})`,
    `(o 1 1 ${Array(5).fill(blank).join(' ')} ---x---)`,
    `(x 1 1 ${Array(4).fill(blank).join(' ')} ---o--- ---x---)`,
    `(o 0 1 ${Array(4).fill(blank).join(' ')} ---o--- --*x---)`,
    `(x 0 1 ${Array(4).fill(blank).join(' ')} ---o--- --*x@--)`,
    '',
  ]);
});

test('the move list as plain text, in a notation', () => {
  const text = nt.moveListText(
    {
      title: 'Triple-King Checkers, room AB12CD, game 1',
      variant: 'triple_king',
      options: { draw_turns: 40 },
      options_text: 'draw after 40 quiet turns',
      sides: ['black', 'white'],
      players: { black: 'Ann', white: '' },
      result: 'in progress',
      turns: [
        { side: 'black', actions: [step([2, 2], [3, 3])] },
        { side: 'white', actions: [step([1, 5], [0, 4])] },
      ],
    },
    'rowcol',
  );
  assert.equal(
    text,
    [
      'Triple-King Checkers, room AB12CD, game 1',
      'Black: Ann',
      'White: ?',
      'Options: draw after 40 quiet turns',
      "Notation: (row, column). Squares are (row,column), both from 0, row 0 at the top (the original document's).",
      'Result: in progress',
      '',
      '1. Black (5,2)–(4,3)',
      '2. White (2,1)–(3,0)',
      '',
    ].join('\n'),
  );
  const kaboom = nt
    .moveListText(
      {
        title: 'Kaboom',
        variant: 'kaboom',
        options: { width: 9, height: 7 },
        sides: ['x', 'o'],
        players: { x: 'X', o: 'O' },
        turns: [
          { side: 'x', actions: [{ kind: 'drop', column: 8, piece: 'bomb' }] },
          { side: 'o', actions: [{ kind: 'detonate', at: [8, 0] }] },
        ],
      },
      'gamesman',
    )
    .split('\n');
  assert.deepEqual(kaboom.slice(-3), ['1. X 9*', '2. O detonate col 9 row 7', '']);
  assert.ok(!kaboom.some((l) => l.startsWith('Options:')), 'no options line without words');
});
