// The puzzle's board: the game's BoardView on a canvas of its own, drawn from the puzzles' slice
// (the position, the last turn, the piece picked) and the legal actions the rules core gives, with
// the solving side at the bottom; its layout on the page, and the square under a pointer.

import { $ } from './ui.js';
import { puzzle as pz } from './store/store.js';
import { BoardView } from './board.js';
import { formatFen, isKaboom } from './position_text.js';
import { sidesOf } from './context.js';
import { same } from './squares.js';

export const pzCanvas = $('#pz-board');
export const pzBoard = new BoardView(pzCanvas);
const area = $('#pz-board-area');

/** Draws the slice's position; `legal`: the actions the player may make now (none while the line
 *  plays itself). */
export function drawPuzzleBoard(legal = []) {
  const { puzzle: p, pos } = pz;
  if (!p || !pos) return;
  const geometry = pzBoard.setState({
    variant: p.variant,
    room: `puzzle:${p.id}`,
    game: 0,
    version: pz.shown,
    board: { width: pos.width, height: pos.height, pieces: pos.pieces },
    last: pz.last,
  });
  // The solver plays up the board, as a seat does in a game.
  pzBoard.setFlipped(!isKaboom(p.variant) && sidesOf(p.variant)[1] === p.turn);
  const movable = [];
  for (const a of legal) if (a.from && !movable.some((sq) => same(sq, a.from))) movable.push(a.from);
  pzBoard.setUi({
    selected: pz.selected,
    movable: pz.selected && pz.partial.length ? [] : movable,
    targets: legal
      .filter((a) => a.to && same(a.from, pz.selected))
      .map((a) => ({ sq: a.to, capture: a.kind === 'jump' })),
    detonatable: legal.filter((a) => a.kind === 'detonate').map((a) => a.at),
  });
  const d = pzCanvas.dataset;
  Object.assign(d, {
    puzzle: p.id,
    variant: p.variant,
    cols: String(pos.width),
    rows: String(pos.height),
    flipped: String(pzBoard.flipped),
    turn: pos.turn,
    step: String(pz.step),
    mode: pz.mode,
    selected: pz.selected ? pz.selected.join(',') : '',
    position: formatFen(pos), // for tests and the curious
  });
  $('#puzzle').dataset.variant = p.variant;
  if (geometry) layoutPuzzleBoard();
  else pzBoard.draw();
}

export function layoutPuzzleBoard() {
  if ($('#puzzle').hidden) return;
  const style = getComputedStyle(area);
  const padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  const padY = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  pzBoard.fit(area.clientWidth - padX, area.clientHeight - padY);
}
new ResizeObserver(() => layoutPuzzleBoard()).observe(area);

/** The square under a pointer event, or null. */
export const squareOf = (e) => pzBoard.squareAtClient(e.clientX, e.clientY);
