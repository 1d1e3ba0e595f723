// The analysis board's canvas: the game's BoardView (same squares, pieces and animations) with
// the values of the turns drawn over it in Gamesman's colours, and its layout on the page.

import { BoardView } from './board.js';
import { formatFen } from './position_text.js';
import { $ } from './ui.js';

export const edCanvas = $('#ed-board');
const area = $('#ed-board-area');

/**
 * A BoardView with value marks on top: `marks` is a list of {sq, colour, shape}, shape 'ring'
 * (round a piece that can move, or a bomb that can go off), 'dot' (a square to move to) or 'slot'
 * (the cell a Kaboom drop lands in).
 */
class EditorBoard extends BoardView {
  constructor(canvas) {
    super(canvas);
    this.marks = [];
  }

  setMarks(marks) {
    this.marks = marks;
    this.draw();
  }

  draw(now = performance.now()) {
    super.draw(now);
    const { ctx, canvas } = this;
    if (!canvas.width || !this.marks.length) return;
    const { w, h } = this.cellPx();
    const m = Math.min(w, h);
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    for (const { sq, colour, shape } of this.marks) {
      const [cx, cy] = this.center(sq);
      ctx.beginPath();
      if (shape === 'ring') {
        ctx.arc(cx, cy, m * 0.45, 0, Math.PI * 2);
        ctx.strokeStyle = colour;
        ctx.lineWidth = m * 0.075;
        ctx.stroke();
        continue;
      }
      ctx.arc(cx, cy, m * (shape === 'slot' ? 0.3 : 0.17), 0, Math.PI * 2);
      ctx.fillStyle = colour;
      ctx.globalAlpha = shape === 'slot' ? 0.75 : 0.95;
      ctx.fill();
      ctx.globalAlpha = 1;
      ctx.strokeStyle = 'rgba(0, 0, 0, 0.55)';
      ctx.lineWidth = Math.max(1, m * 0.025);
      ctx.stroke();
    }
    ctx.restore();
  }
}

export const edBoard = new EditorBoard(edCanvas);

let shown = 0; // a number for each position shown: the board animates only a turn played forward

/**
 * Shows a position (position_text.js's form). `last`: the turn that led to it ({side, actions}),
 * animated when `animate` (a turn just played) and marked on the board.
 */
export function showPosition(pos, { last = null, animate = false } = {}) {
  shown += animate ? 1 : 2;
  edBoard.ui.ghost = null; // a drop's ghost is about the position before
  const geometry = edBoard.setState({
    variant: pos.variant,
    room: 'analysis',
    game: 0,
    version: shown,
    board: { width: pos.width, height: pos.height, pieces: pos.pieces },
    last,
  });
  edCanvas.dataset.variant = pos.variant;
  edCanvas.dataset.cols = String(pos.width);
  edCanvas.dataset.rows = String(pos.height);
  edCanvas.dataset.flipped = 'false';
  edCanvas.dataset.turn = pos.turn;
  edCanvas.dataset.position = formatFen(pos); // for tests and the curious
  $('#analysis').dataset.variant = pos.variant;
  if (geometry) layoutEditorBoard();
  else edBoard.draw();
}

export function layoutEditorBoard() {
  if ($('#analysis').hidden) return;
  const style = getComputedStyle(area);
  const padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  const padY = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  edBoard.fit(area.clientWidth - padX, area.clientHeight - padY);
}
new ResizeObserver(() => layoutEditorBoard()).observe(area);

/** The square under a pointer event, or null. */
export const squareOf = (e) => edBoard.squareAtClient(e.clientX, e.clientY);

/** The line over the board: the position's value in words, or what is going on. */
export function setValue(text, colour = null) {
  const el = $('#ed-value');
  el.textContent = text;
  el.style.setProperty('--value-colour', colour ?? 'transparent');
  el.classList.toggle('valued', !!colour);
}

/**
 * A message under the board: the server's refusal of a position, a text that would not load.
 * `from` names what said it, so that `unsay` takes back only its own word.
 */
export function say(text, kind = 'error', from = '') {
  const el = $('#ed-message');
  el.textContent = text;
  el.className = text ? `ed-message ${kind}` : 'ed-message empty';
  el.dataset.from = from;
}

export function unsay(from) {
  if ($('#ed-message').dataset.from === from) say('');
}
