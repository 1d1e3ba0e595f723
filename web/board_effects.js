// What a turn's effects look like on the board, frame by frame: pieces falling or hopping, fading
// captures, promotions and blasts. Each function takes the BoardView (its context, geometry and
// effects list).

import { drawPiece, star } from './pieces.js';

const easeInOut = (t) => (t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2);
const easeOut = (t) => 1 - (1 - t) ** 3;
const clamp01 = (t) => Math.max(0, Math.min(1, t));

export function drawEffects(view, w, h, now) {
  const { ctx } = view;
  const m = Math.min(w, h);
  const r = m * (view.kaboom ? 0.4 : 0.39);
  // Fades and moving pieces first, blasts on top of everything.
  const order = { flash: 0, fade: 1, fall: 2, move: 3, promote: 4, blast: 5 };
  const list = [...view.effects].sort((a, b) => order[a.type] - order[b.type]);
  for (const e of list) {
    const raw = (now - e.t0) / e.dur;
    if (e.type === 'move') {
      const t = clamp01(raw);
      const hops = e.path.length - 1;
      const pos = easeInOut(t) * hops;
      const i = Math.min(hops - 1, Math.floor(pos));
      const f = pos - i;
      const [ax, ay] = view.center(e.path[i]);
      const [bx, by] = view.center(e.path[i + 1]);
      const lift = Math.sin(Math.PI * f) * m * 0.12 * (hops > 0 ? 1 : 0);
      const piece = t >= 1 && e.final ? e.final : e.piece;
      ctx.save();
      ctx.translate(ax + (bx - ax) * f, ay + (by - ay) * f - lift);
      ctx.scale(1 + lift / m, 1 + lift / m);
      drawPiece(ctx, 0, 0, r, piece);
      ctx.restore();
    } else if (e.type === 'fall') {
      const t = raw < 0 ? 0 : clamp01(raw);
      const [cx, cyEnd] = view.center(e.piece.at);
      const [, cyStart] = view.center([e.piece.at[0], Math.min(e.fromY, view.rows - 1)]);
      const startY = e.fromY >= view.rows ? -m * 0.6 : cyStart;
      const k = t * t;
      drawPiece(ctx, cx, startY + (cyEnd - startY) * k, r, e.piece);
    } else if (e.type === 'fade') {
      if (raw < 0) {
        const [cx, cy] = view.center(e.piece.at);
        drawPiece(ctx, cx, cy, r, e.piece);
        continue;
      }
      const t = clamp01(raw);
      const [cx, cy] = view.center(e.piece.at);
      ctx.globalAlpha = 1 - t;
      drawPiece(ctx, cx, cy, r * (1 + 0.25 * t), e.piece);
      ctx.globalAlpha = 1;
    } else if (e.type === 'flash') {
      if (raw < 0) continue;
      const t = clamp01(raw);
      const [rx, ry, rw, rh] = view.cellRect(e.sq);
      ctx.fillStyle = `rgba(255, 90, 90, ${0.45 * (1 - t)})`;
      ctx.fillRect(rx, ry, rw, rh);
    } else if (e.type === 'promote') {
      if (raw < 0) continue;
      const t = clamp01(raw);
      const [cx, cy] = view.center(e.sq);
      ctx.strokeStyle = `rgba(255, 215, 90, ${1 - t})`;
      ctx.lineWidth = m * 0.06 * (1 - t) + 1;
      ctx.beginPath();
      ctx.arc(cx, cy, m * (0.4 + 0.5 * easeOut(t)), 0, Math.PI * 2);
      ctx.stroke();
      for (let i = 0; i < 8; i++) {
        const a = (i / 8) * Math.PI * 2 + t * 1.5;
        const d = m * (0.35 + 0.45 * easeOut(t));
        star(ctx, cx + Math.cos(a) * d, cy + Math.sin(a) * d, m * 0.06 * (1 - t), `rgba(255, 230, 140, ${1 - t})`);
      }
    } else if (e.type === 'blast') {
      if (raw < 0) continue;
      drawBlast(view, e, clamp01(raw), m);
    }
  }
}

function drawBlast(view, e, t, m) {
  const { ctx } = view;
  const centers = e.squares.map((s) => view.center(s));
  // The block flashes white-hot, then each square burns out from its middle.
  if (t < 0.25) {
    const a = 1 - t / 0.25;
    for (const s of e.squares) {
      const [rx, ry, rw, rh] = view.cellRect(s);
      ctx.fillStyle = `rgba(255, 245, 200, ${0.7 * a})`;
      ctx.fillRect(rx, ry, rw, rh);
    }
  }
  ctx.save();
  ctx.globalCompositeOperation = 'lighter';
  for (const [cx, cy] of centers) {
    const rr = m * (0.25 + 0.85 * easeOut(t));
    const g = ctx.createRadialGradient(cx, cy, 0, cx, cy, rr);
    const a = 1 - t;
    g.addColorStop(0, `rgba(255, 250, 210, ${a})`);
    g.addColorStop(0.35, `rgba(255, 170, 50, ${0.9 * a})`);
    g.addColorStop(0.7, `rgba(220, 60, 20, ${0.6 * a})`);
    g.addColorStop(1, 'rgba(120, 20, 0, 0)');
    ctx.fillStyle = g;
    ctx.beginPath();
    ctx.arc(cx, cy, rr, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.restore();
  // One shock wave from the middle of the blast.
  const mx = centers.reduce((s, c) => s + c[0], 0) / centers.length;
  const my = centers.reduce((s, c) => s + c[1], 0) / centers.length;
  ctx.strokeStyle = `rgba(255, 220, 160, ${0.8 * (1 - t)})`;
  ctx.lineWidth = m * 0.08 * (1 - t) + 1;
  ctx.beginPath();
  ctx.arc(mx, my, m * (0.3 + 2.0 * easeOut(t)), 0, Math.PI * 2);
  ctx.stroke();
  // Sparks and debris, from a seeded generator so every frame agrees.
  let seed = (e.seed * 9301 + 49297) % 233280;
  const rnd = () => (seed = (seed * 9301 + 49297) % 233280) / 233280;
  for (const [cx, cy] of centers) {
    for (let i = 0; i < 9; i++) {
      const ang = rnd() * Math.PI * 2;
      const speed = m * (0.6 + rnd() * 1.1);
      const d = speed * easeOut(t);
      const x = cx + Math.cos(ang) * d;
      const y = cy + Math.sin(ang) * d + m * 0.6 * t * t;
      const size = m * (0.025 + rnd() * 0.035) * (1 - t);
      ctx.fillStyle = rnd() < 0.5 ? `rgba(255, 210, 90, ${1 - t})` : `rgba(255, 120, 40, ${1 - t})`;
      ctx.beginPath();
      ctx.arc(x, y, Math.max(0.5, size), 0, Math.PI * 2);
      ctx.fill();
    }
  }
  // Smoke lingers as the fire fades.
  if (t > 0.35) {
    const a = Math.sin(((t - 0.35) / 0.65) * Math.PI) * 0.35;
    for (const [cx, cy] of centers) {
      const g = ctx.createRadialGradient(cx, cy - m * 0.2 * t, 0, cx, cy - m * 0.2 * t, m * 0.6);
      g.addColorStop(0, `rgba(60, 55, 55, ${a})`);
      g.addColorStop(1, 'rgba(60, 55, 55, 0)');
      ctx.fillStyle = g;
      ctx.beginPath();
      ctx.arc(cx, cy - m * 0.2 * t, m * 0.6, 0, Math.PI * 2);
      ctx.fill();
    }
  }
}
