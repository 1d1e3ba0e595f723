// Unit tests of web/position_text.js (no browser, no server needed): both notations read and
// written back exactly for every variant, the start positions, and the refusals. With BC_BINARY
// set (tests/browser/run.sh sets it), each FEN-like line is also given to `bombcheckers analyse
// --fen`, which must read it and print back the very same line.
//   node --test tests/browser/position_text.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { importWeb } from './web_modules.mjs';

const pt = await importWeb('position_text.js');

/** The CLI's own reading of a FEN-like line: the first word it prints (null without a binary). */
function cliEcho(variant, fen, options = {}) {
  const bin = process.env.BC_BINARY;
  if (!bin) return null;
  const opts = Object.entries(options).flatMap(([k, v]) => ['--opt', `${k}=${typeof v === 'boolean' ? Number(v) : v}`]);
  const out = execFileSync(bin, ['analyse', '--variant', variant, ...opts, '--fen', fen, '--depth', '1'], {
    encoding: 'utf8',
    timeout: 20000,
  });
  return out.split(/\s/)[0];
}

/** Text -> position -> text is the same text, and position -> text -> position the same position. */
function roundTrip(variant, fen, options = {}) {
  const pos = pt.parseFen(fen, variant, options);
  assert.equal(pt.formatFen(pos), fen, `${variant} ${fen}`);
  assert.deepEqual(pt.parseFen(pt.formatFen(pos), variant, options), pos);
  const echo = cliEcho(variant, fen, options);
  if (echo !== null) assert.equal(echo, fen, `the CLI reads ${fen} as ${echo}`);
  return pos;
}

test('start positions: the FEN-like line of each variant, as the CLI writes it', () => {
  const starts = {
    bomb: 'fire:a1,c1,e1,g1,Sb2,Sd2,Sf2,Sh2,Ba3,Bc3,Be3,Bg3:Bb6,Bd6,Bf6,Bh6,Sa7,Sc7,Se7,Sg7,b8,d8,f8,h8',
    classic: 'black:a1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:b6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8',
    triple_king: 'black:a1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:b6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8',
    kaboom: 'x:::1,1',
  };
  for (const [variant, fen] of Object.entries(starts)) {
    const start = pt.startPosition(variant, {});
    assert.equal(pt.formatFen(start), fen, variant);
    assert.deepEqual(pt.parseFen('start', variant, {}), start);
    roundTrip(variant, fen);
    const echo = cliEcho(variant, 'start');
    if (echo !== null) assert.equal(echo, fen, `the CLI's start of ${variant}`);
  }
  assert.equal(
    pt.formatGamesman(pt.startPosition('kaboom', { width: 4, height: 3, bombs: 2 })),
    '(x 2 2 ---- ---- ----)',
  );
});

test('checkers: kings, triple kings, shields, bombs and the second side to move', () => {
  const bomb = roundTrip('bomb', 'water:c3,Bd4,KSe5,KBa7:KSb2,Bf6,g7,Kh8');
  assert.deepEqual(
    bomb.pieces.find((p) => p.at[0] === 4 && p.at[1] === 4),
    { at: [4, 4], side: 'fire', kind: 'shield', rank: 'king' },
  );
  assert.equal(bomb.turn, 'water');
  assert.equal(bomb.bombs, null);
  roundTrip('classic', 'white:Ka1,c3:b6,Kh8');
  const tk = roundTrip('triple_king', 'black:Ta1,Kc3,e3:Kb6,d6,Th8');
  assert.equal(tk.pieces[0].rank, 'triple_king');
  // Written out of order, read and written back in the server's order (rank, then file).
  const pos = pt.parseFen('fire:e5,c3:g7,Bf6', 'bomb');
  assert.equal(pt.formatFen(pos), 'fire:c3,e5:Bf6,g7');
  // 1 and 2 for the sides, spaces between pieces, and a bomb count the checkers line ignores.
  assert.equal(pt.formatFen(pt.parseFen('2:c3 e5:g7:0,0', 'classic')), 'white:c3,e5:g7');
  // Every piece of a position survives the trip through the wire form and back.
  const wire = pt.toWire(bomb);
  assert.deepEqual(
    pt.fromState({ variant: 'bomb', board: { width: 8, height: 8, pieces: wire.pieces }, turn: wire.turn }),
    bomb,
  );
});

test('kaboom: bombs on the board and in hand, both notations, any board size', () => {
  const opts = { width: 4, height: 4, connect: 4 };
  const pos = roundTrip('kaboom', 'x:a1,b1,Bc1,a2:b2,a3:1,1', opts);
  assert.equal(pt.formatGamesman(pos), '(x 1 1 ---- o--- xo-- xx*-)');
  assert.deepEqual(pt.parseGamesman('(x 1 1 ---- o--- xo-- xx*-)'), pos);
  // Both bombs, o to move, none left for x, two for o; a misère game writes the same text.
  const g = '(o 0 2 ----- @---- xo*-o)';
  const p2 = pt.parseGamesman(g);
  assert.equal(p2.width, 5);
  assert.equal(p2.height, 3);
  assert.deepEqual(p2.bombs, { x: 0, o: 2 });
  assert.equal(pt.formatGamesman(p2), g);
  assert.equal(pt.formatFen(p2), 'o:a1,Bc1:b1,e1,Ba2:0,2');
  roundTrip('kaboom', 'o:a1,Bc1:b1,e1,Ba2:0,2', { width: 5, height: 3, connect: 3, misere: true });
  assert.deepEqual(pt.parseFen('o:a1,Bc1:b1,e1,Ba2:0,2', 'kaboom', { width: 5, height: 3 }), p2);
  // The en dash is an empty cell too; a big board; an empty one.
  assert.equal(pt.formatGamesman(pt.parseGamesman('(x 1 1 –––– ---- -o-- xx*–)')), '(x 1 1 ---- ---- -o-- xx*-)');
  const wide = `(x 10 9 ${'-'.repeat(12)} ${'-'.repeat(12)} ${'xo'.repeat(6)})`;
  assert.equal(pt.formatGamesman(pt.parseGamesman(wide)), wide);
  roundTrip('kaboom', pt.formatFen(pt.parseGamesman(wide)), { width: 12, height: 3, bombs: 10 });
  roundTrip('kaboom', 'x:::0,0', { width: 3, height: 3, connect: 3 });
  assert.equal(pt.formatGamesman(pt.parseGamesman('(x 0 0 --- --- ---)')), '(x 0 0 --- --- ---)');
  // A FEN-like line without bombs has none in hand.
  assert.deepEqual(pt.parseFen('x:a1:b1', 'kaboom').bombs, { x: 0, o: 0 });
});

test('either notation by its first character', () => {
  assert.equal(pt.parsePositionText(' (x 0 0 --- --- x--) ', 'kaboom').format, 'gamesman');
  assert.equal(pt.parsePositionText('x:a1::0,0', 'kaboom', { width: 3, height: 3 }).format, 'fen');
  assert.throws(() => pt.parsePositionText('(x 0 0 --- --- x--)', 'bomb'), /Kaboom position/);
});

test('refusals say what is wrong', () => {
  const bad = [
    ['bomb', 'fire:c3', /<to-move>:<first pieces>/],
    ['bomb', 'x:c3:d6', /unknown side to move 'x'/],
    ['bomb', 'fire:Qc3:', /unknown piece prefix/],
    ['bomb', 'fire:c4:', /not a playable/],
    ['bomb', 'fire:c3,c3:', /two pieces on c3/],
    ['bomb', 'fire:i1:', /off the 8x8 board/],
    ['bomb', 'fire:c0:', /bad square/],
    ['kaboom', 'x:a1:b1:1', /bombs in hand/],
    ['kaboom', 'x:g1:b1:1,1', /off the 4x4 board/],
  ];
  for (const [variant, text, why] of bad) {
    assert.throws(
      () => pt.parseFen(text, variant, { width: 4, height: 4 }),
      (e) => e instanceof pt.PositionTextError && why.test(e.message),
      text,
    );
  }
  for (const [text, why] of [
    ['x 1 1 ----', /in brackets/],
    ['(z 1 1 ----)', /x or o/],
    ['(x 1 ----)', /bombs left/],
    ['(x 1 1)', /rows/],
    ['(x 1 1 ---- ---)', /row 2 from the top has 3 cells/],
    ['(x 1 1 --#-)', /'#' is not a cell/],
    [`(x 1 1 ${'-'.repeat(13)})`, /at most 12/],
  ]) {
    assert.throws(() => pt.parseGamesman(text), why, text);
  }
});
