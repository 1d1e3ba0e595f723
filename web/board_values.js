// The values of the turns on the board, for a BoardView (the Values toggle, the analysis board):
// a ring in a value's colour around a piece that can move or a bomb that can go off, a dot on the
// square a selected piece can reach, and a ring on the cell a Kaboom drop lands in. The colours
// come with the marks (values.js's valueColour); this only draws them, over the highlights.

/** view.ui.valueMarks: [{sq, colour, shape: 'piece' | 'target' | 'cell'}] */
export function drawValueMarks(view, w, h) {
  const marks = view.ui.valueMarks;
  if (!marks?.length) return;
  const { ctx } = view;
  const m = Math.min(w, h);
  ctx.save();
  for (const mark of marks) {
    const [cx, cy] = view.center(mark.sq);
    ctx.beginPath();
    if (mark.shape === 'target') {
      // Over the plain target dot, a little larger, with a dark edge to stand out on any square.
      ctx.arc(cx, cy, m * 0.17, 0, Math.PI * 2);
      ctx.fillStyle = mark.colour;
      ctx.fill();
      ctx.strokeStyle = 'rgba(10, 14, 26, 0.85)';
      ctx.lineWidth = Math.max(1, m * 0.025);
      ctx.stroke();
    } else {
      // A piece's ring sits outside the piece and the selection's glow; a cell's, in its slot.
      const radius = mark.shape === 'piece' ? m * 0.47 : m * 0.4;
      ctx.arc(cx, cy, radius, 0, Math.PI * 2);
      ctx.strokeStyle = mark.colour;
      ctx.lineWidth = Math.max(2, m * (mark.shape === 'piece' ? 0.055 : 0.08));
      ctx.stroke();
    }
  }
  ctx.restore();
}
