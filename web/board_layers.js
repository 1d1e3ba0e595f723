// The board's layers under the pieces, for a BoardView: the squares (checkerboard or Kaboom's
// grid), the marks of the last turn, and the highlights of what may be played.

import { key, same, asSquare } from './squares.js';
import { drawPiece } from './pieces.js';

const BOARD = {
  light: '#a63d3a', // the unplayable (red) squares
  lightEdge: '#b84a45',
  dark: '#474b54', // the playable (gray) squares
  darkEdge: '#545963',
  label: 'rgba(255,255,255,0.55)',
  kaboomBg: '#1e2b4d',
  kaboomSlot: '#0d1426',
};

export function drawCheckerboard(view, w, h) {
  const { ctx } = view;
  for (let y = 0; y < view.rows; y++) {
    for (let x = 0; x < view.cols; x++) {
      const [rx, ry, rw, rh] = view.cellRect([x, y]);
      const playable = (x + y) % 2 === 0;
      const g = ctx.createLinearGradient(rx, ry, rx + rw, ry + rh);
      g.addColorStop(0, playable ? BOARD.darkEdge : BOARD.lightEdge);
      g.addColorStop(1, playable ? BOARD.dark : BOARD.light);
      ctx.fillStyle = g;
      ctx.fillRect(rx, ry, rw, rh);
    }
  }
  drawEdgeLabels(view, w, h);
}

/** Coordinates in the corners of the edge squares: columns along the bottom, rows on the left;
 *  the view's labels (a notation's), else a-h and 1-8. Kaboom's grid has them only when given. */
function drawEdgeLabels(view, w, h) {
  const { ctx } = view;
  const labels =
    view.labels ??
    (view.kaboom
      ? null
      : {
          cols: Array.from({ length: view.cols }, (_, c) =>
            String.fromCharCode(97 + view.fromScreen(c, view.rows - 1)[0]),
          ),
          rows: Array.from({ length: view.rows }, (_, r) => String(view.fromScreen(0, r)[1] + 1)),
        });
  if (!labels) return;
  const fs = Math.max(8, Math.round(Math.min(w, h) * 0.16));
  ctx.font = `600 ${fs}px system-ui, sans-serif`;
  ctx.fillStyle = BOARD.label;
  ctx.textBaseline = 'alphabetic';
  ctx.textAlign = 'right';
  labels.cols.forEach((text, c) => ctx.fillText(text, (c + 1) * w - fs * 0.3, view.rows * h - fs * 0.3));
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  labels.rows.forEach((text, r) => ctx.fillText(text, fs * 0.3, r * h + fs * 0.3));
  ctx.textBaseline = 'alphabetic';
}

export function drawKaboomGrid(view, w, h) {
  const { ctx, canvas } = view;
  const g = ctx.createLinearGradient(0, 0, 0, canvas.height);
  g.addColorStop(0, '#27396a');
  g.addColorStop(1, BOARD.kaboomBg);
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const hoverCol = view.ui.hover ? view.ui.hover[0] : -1;
  for (let x = 0; x < view.cols; x++) {
    if (x === hoverCol && view.ui.ghost) {
      const [cx] = view.center([x, 0]);
      ctx.fillStyle = 'rgba(255,255,255,0.06)';
      ctx.fillRect(cx - w / 2, 0, w, canvas.height);
    }
    for (let y = 0; y < view.rows; y++) {
      const [cx, cy] = view.center([x, y]);
      const r = Math.min(w, h) * 0.4;
      const sg = ctx.createRadialGradient(cx, cy - r * 0.3, r * 0.1, cx, cy, r);
      sg.addColorStop(0, '#070b16');
      sg.addColorStop(1, BOARD.kaboomSlot);
      ctx.fillStyle = sg;
      ctx.beginPath();
      ctx.arc(cx, cy, r, 0, Math.PI * 2);
      ctx.fill();
      ctx.strokeStyle = 'rgba(255,255,255,0.07)';
      ctx.lineWidth = Math.max(1, r * 0.06);
      ctx.stroke();
    }
  }
  drawEdgeLabels(view, w, h);
}

export function drawLast(view, w, h) {
  const last = view.state?.last;
  if (!last) return;
  const m = Math.min(w, h);
  const moves = (last.actions ?? []).filter((a) => a.from && a.to);
  const squares = lastSquares(view, last, moves);
  for (const sq of squares) markLastSquare(view, sq, m);
  drawTakenMarks(view, last, m);
  drawBlastMarks(view, last, m);
  if (moves.length && !view.kaboom) drawLastPath(view, squares.slice(0, moves.length + 1), m);
}

// The squares the last turn touched: its path of hops, or where a Kaboom piece landed or blew.
function lastSquares(view, last, moves) {
  const squares = [];
  if (moves.length) squares.push(moves[0].from, ...moves.map((a) => a.to));
  for (const a of last.actions ?? []) {
    if (a.kind === 'drop') {
      const top = (view.state.board?.pieces ?? [])
        .filter((p) => p.at[0] === a.column)
        .sort((p, q) => q.at[1] - p.at[1])[0];
      if (top) squares.push(top.at);
    }
    if (a.kind === 'detonate' && a.at) squares.push(a.at);
  }
  return squares;
}

function markLastSquare(view, sq, m) {
  const { ctx } = view;
  if (view.kaboom) {
    ring(ctx, view.center(sq), m * 0.45, m * 0.05, 'rgba(255, 214, 102, 0.8)');
  } else {
    const [rx, ry, rw, rh] = view.cellRect(sq);
    ctx.fillStyle = 'rgba(255, 214, 102, 0.26)';
    ctx.fillRect(rx, ry, rw, rh);
  }
}

// Pieces taken (and not blown up): a faint cross where each stood.
function drawTakenMarks(view, last, m) {
  if (view.kaboom) return;
  const { ctx } = view;
  const blasted = new Set((last.exploded ?? []).map(asSquare).filter(Boolean).map(key));
  for (const s of last.captured ?? []) {
    const sq = asSquare(s);
    if (!sq || blasted.has(key(sq))) continue;
    const [cx, cy] = view.center(sq);
    const d = m * 0.12;
    ctx.save();
    ctx.strokeStyle = 'rgba(255, 140, 120, 0.6)';
    ctx.lineWidth = m * 0.045;
    ctx.lineCap = 'round';
    ctx.beginPath();
    ctx.moveTo(cx - d, cy - d);
    ctx.lineTo(cx + d, cy + d);
    ctx.moveTo(cx + d, cy - d);
    ctx.lineTo(cx - d, cy + d);
    ctx.stroke();
    ctx.restore();
  }
}

function drawBlastMarks(view, last, m) {
  const { ctx } = view;
  for (const s of last.exploded ?? []) {
    const sq = asSquare(s);
    if (!sq) continue;
    const [cx, cy] = view.center(sq);
    const g = ctx.createRadialGradient(cx, cy, 0, cx, cy, m * 0.55);
    g.addColorStop(0, 'rgba(20, 8, 4, 0.55)');
    g.addColorStop(0.6, 'rgba(120, 40, 10, 0.25)');
    g.addColorStop(1, 'rgba(255, 120, 40, 0)');
    ctx.fillStyle = g;
    const [rx, ry, rw, rh] = view.cellRect(sq);
    ctx.fillRect(rx, ry, rw, rh);
  }
}

// The path of the last turn's hops, dotted, with a dot at every square it left.
function drawLastPath(view, path, m) {
  const { ctx } = view;
  const pts = path.map((s) => view.center(s));
  ctx.save();
  ctx.strokeStyle = 'rgba(255, 214, 102, 0.7)';
  ctx.fillStyle = 'rgba(255, 214, 102, 0.7)';
  ctx.lineWidth = m * 0.07;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.setLineDash([m * 0.02, m * 0.13]);
  ctx.beginPath();
  pts.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
  ctx.stroke();
  ctx.setLineDash([]);
  for (const [x, y] of pts.slice(0, -1)) {
    ctx.beginPath();
    ctx.arc(x, y, m * 0.07, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.restore();
}

// A premove's colour: violet, unlike the blue of a selection and the gold of the last turn.
const PREMOVE = { fill: 'rgba(190, 120, 255, 0.3)', line: 'rgba(214, 170, 255, 0.95)' };

/** The rectangles a premove marks: its squares, or the whole column of a premoved drop. */
function premoveRects(view) {
  const pm = view.ui.premove;
  if (!pm) return [];
  const rects = pm.squares.map((sq) => view.cellRect(sq));
  if (pm.column !== null && pm.column !== undefined) {
    const [x0, y0, cw] = view.cellRect([pm.column, view.rows - 1]);
    const [, y1, , ch] = view.cellRect([pm.column, 0]);
    rects.push([x0, Math.min(y0, y1), cw, Math.abs(y1 - y0) + ch]);
  }
  return rects;
}

export function drawUiUnder(view, w, h, now) {
  const { ctx } = view;
  const m = Math.min(w, h);
  const { selected, targets, hover } = view.ui;
  for (const [rx, ry, rw, rh] of premoveRects(view)) {
    ctx.fillStyle = PREMOVE.fill;
    ctx.fillRect(rx, ry, rw, rh);
  }
  if (selected) {
    const [rx, ry, rw, rh] = view.cellRect(selected);
    ctx.fillStyle = 'rgba(120, 220, 255, 0.28)';
    ctx.fillRect(rx, ry, rw, rh);
  }
  for (const t of targets) {
    if (hover && same(hover, t.sq)) {
      const [rx, ry, rw, rh] = view.cellRect(t.sq);
      ctx.fillStyle = 'rgba(120, 220, 255, 0.22)';
      ctx.fillRect(rx, ry, rw, rh);
    }
  }
  void now;
  void m;
}

// A circle's outline around a square's centre.
function ring(ctx, [cx, cy], radius, width, color) {
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.beginPath();
  ctx.arc(cx, cy, radius, 0, Math.PI * 2);
  ctx.stroke();
}

export function drawUiOver(view, w, h, now) {
  const { ctx } = view;
  const m = Math.min(w, h);
  const { selected, targets, movable, detonatable, hover, ghost } = view.ui;
  const pulse = view.reduceMotion ? 1 : 0.5 + 0.5 * Math.sin(now / 260);
  for (const sq of movable) {
    if (selected && same(sq, selected)) continue;
    const isHover = hover && same(hover, sq);
    ring(
      ctx,
      view.center(sq),
      m * 0.44,
      m * (isHover ? 0.05 : 0.03),
      isHover ? 'rgba(255,255,255,0.9)' : 'rgba(255,255,255,0.35)',
    );
  }
  for (const sq of detonatable) {
    ring(ctx, view.center(sq), m * 0.46, m * 0.05, `rgba(255, 170, 60, ${0.45 + 0.45 * pulse})`);
  }
  if (selected) {
    const [cx, cy] = view.center(selected);
    ctx.strokeStyle = 'rgba(140, 230, 255, 0.95)';
    ctx.lineWidth = m * 0.055;
    ctx.shadowColor = 'rgba(140, 230, 255, 0.9)';
    ctx.shadowBlur = m * 0.15;
    ctx.beginPath();
    ctx.arc(cx, cy, m * 0.44, 0, Math.PI * 2);
    ctx.stroke();
    ctx.shadowBlur = 0;
  }
  for (const t of targets) {
    const [cx, cy] = view.center(t.sq);
    if (t.capture) {
      ring(ctx, [cx, cy], m * 0.3, m * 0.06, 'rgba(140, 230, 255, 0.85)');
    } else {
      ctx.fillStyle = 'rgba(140, 230, 255, 0.8)';
      ctx.beginPath();
      ctx.arc(cx, cy, m * 0.14, 0, Math.PI * 2);
      ctx.fill();
    }
  }
  // The premove's outline, dashed: a move to come, not one being made.
  const lw = Math.max(2, m * 0.06);
  for (const [rx, ry, rw, rh] of premoveRects(view)) {
    ctx.strokeStyle = PREMOVE.line;
    ctx.lineWidth = lw;
    ctx.setLineDash([m * 0.12, m * 0.08]);
    ctx.strokeRect(rx + lw / 2, ry + lw / 2, rw - lw, rh - lw);
    ctx.setLineDash([]);
  }
  if (ghost) {
    const [cx, cy] = view.center(ghost.sq);
    ctx.globalAlpha = 0.35;
    drawPiece(view.ctx, cx, cy, m * 0.4, ghost.piece);
    ctx.globalAlpha = 1;
  }
  // The keyboard's focus square (keyboard.js): yellow inside black, seen on light and dark squares.
  if (view.ui.cursor) {
    const [cx, cy] = view.center(view.ui.cursor);
    const line = Math.max(2, m * 0.05);
    for (const [colour, inset] of [
      ['#000', line / 2],
      ['#ffd23f', line * 1.5],
    ]) {
      ctx.strokeStyle = colour;
      ctx.lineWidth = line;
      ctx.strokeRect(cx - w / 2 + inset, cy - h / 2 + inset, w - 2 * inset, h - 2 * inset);
    }
  }
}
