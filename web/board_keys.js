// A board played from the keyboard: a focus square over a BoardView's canvas, moved by the arrow
// keys in screen order (whichever way the board is turned), Enter (or Space, when the page has no
// other use for it) doing what a click on that square does, each square said through the live
// region. The focus square is the keyboard's: it shows when the canvas is reached by the keyboard
// (:focus-visible) or Enter is pressed on it, and a pointer's press hides it, so the arrows keep
// what the page gives them otherwise (stepping through a game). Used by the game's board
// (keyboard.js), the puzzle's and the analysis board's.

import { announce } from './announce.js';

const STEPS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

/**
 * Wires `canvas` (drawn by `view`) for the keyboard. `opts`: `ready()` whether there is a board to
 * play now; `start()` the square the focus square starts on; `click(sq)` what Enter does there;
 * `describe(sq)` the square in words; `space()` whether Space is free for the board now. Returns
 * {square(), engaged(), show(sq)}.
 */
export function boardKeys(canvas, view, opts) {
  let cursor = null;
  let engaged = false;
  const show = (sq, say = true) => {
    cursor = sq;
    view.setUi({ cursor: sq });
    canvas.dataset.cursor = sq ? sq.join(',') : '';
    if (sq && say) announce(opts.describe(sq));
  };
  canvas.addEventListener('focus', () => {
    engaged = canvas.matches(':focus-visible');
    if (engaged && opts.ready()) show(cursor ?? opts.start(), false);
  });
  canvas.addEventListener('blur', () => view.setUi({ cursor: null }));
  canvas.addEventListener('pointerdown', () => {
    engaged = false;
    view.setUi({ cursor: null });
  });
  canvas.addEventListener('keydown', (e) => {
    if (!opts.ready() || e.altKey || e.ctrlKey || e.metaKey) return;
    const step = engaged && STEPS[e.key];
    if (step) {
      e.preventDefault();
      e.stopPropagation(); // not the page's arrows (looking back over the game)
      const { cols, rows } = view;
      const [col, row] = view.toScreen(cursor ?? opts.start());
      const c = Math.min(cols - 1, Math.max(0, col + step[0]));
      const r = Math.min(rows - 1, Math.max(0, row + step[1]));
      show(view.fromScreen(c, r));
    } else if (e.key === 'Enter' || (e.key === ' ' && (opts.space?.() ?? true))) {
      e.preventDefault();
      e.stopPropagation();
      if (!engaged || !cursor) show(cursor ?? opts.start(), false);
      engaged = true;
      opts.click(cursor);
    }
  });
  return {
    square: () => cursor,
    engaged: () => engaged,
    /** Draws the focus square again after the board was redrawn, if the keyboard has it. */
    redraw: () => {
      if (cursor && engaged && document.activeElement === canvas) view.setUi({ cursor });
    },
    forget: () => {
      cursor = null;
    },
  };
}
