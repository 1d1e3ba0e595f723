// The pieces on a 2D canvas context: body, rim, kind emblem (shield, bomb) and crowns. Shared by
// the board and the effects that move pieces.

const SIDE_COLORS = {
  fire: { hi: '#ffd59a', mid: '#ff7b2e', lo: '#b8281c', rim: '#6e140b', ink: '#fff4e3' },
  water: { hi: '#c4ecff', mid: '#2e8df2', lo: '#15449a', rim: '#0a2a66', ink: '#eaf6ff' },
  black: { hi: '#767b86', mid: '#2b2e35', lo: '#0c0d10', rim: '#000000', ink: '#f0ede6' },
  white: { hi: '#ffffff', mid: '#efe8da', lo: '#b9b09e', rim: '#7d7565', ink: '#3b362f' },
};
SIDE_COLORS.x = SIDE_COLORS.fire;
SIDE_COLORS.o = SIDE_COLORS.water;

export function star(ctx, x, y, r, color) {
  if (r <= 0.2) return;
  ctx.fillStyle = color;
  ctx.beginPath();
  for (let i = 0; i < 8; i++) {
    const a = (i / 8) * Math.PI * 2;
    const d = i % 2 === 0 ? r : r * 0.35;
    ctx.lineTo(x + Math.cos(a) * d, y + Math.sin(a) * d);
  }
  ctx.closePath();
  ctx.fill();
}

export function drawPiece(ctx, cx, cy, r, p) {
  const c = SIDE_COLORS[p.side] ?? SIDE_COLORS.fire;
  ctx.save();
  // Shadow.
  ctx.fillStyle = 'rgba(0,0,0,0.35)';
  ctx.beginPath();
  ctx.ellipse(cx + r * 0.06, cy + r * 0.14, r * 1.0, r * 0.96, 0, 0, Math.PI * 2);
  ctx.fill();
  // Body.
  const g = ctx.createRadialGradient(cx - r * 0.35, cy - r * 0.4, r * 0.1, cx, cy, r * 1.05);
  g.addColorStop(0, c.hi);
  g.addColorStop(0.45, c.mid);
  g.addColorStop(1, c.lo);
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = c.rim;
  ctx.lineWidth = r * 0.07;
  ctx.stroke();
  const kind = p.kind ?? 'normal';
  if (kind === 'shield') {
    // A silver band round the edge and a shield in the middle.
    const sg = ctx.createLinearGradient(cx - r, cy - r, cx + r, cy + r);
    sg.addColorStop(0, '#f4f7fb');
    sg.addColorStop(0.5, '#9aa3af');
    sg.addColorStop(1, '#e3e8ef');
    ctx.strokeStyle = sg;
    ctx.lineWidth = r * 0.16;
    ctx.beginPath();
    ctx.arc(cx, cy, r * 0.86, 0, Math.PI * 2);
    ctx.stroke();
  } else {
    // The ridges of a draughts piece.
    ctx.strokeStyle = 'rgba(0,0,0,0.22)';
    ctx.lineWidth = r * 0.06;
    ctx.beginPath();
    ctx.arc(cx, cy, r * 0.74, 0, Math.PI * 2);
    ctx.stroke();
    ctx.strokeStyle = 'rgba(255,255,255,0.18)';
    ctx.lineWidth = r * 0.04;
    ctx.beginPath();
    ctx.arc(cx, cy, r * 0.66, 0, Math.PI * 2);
    ctx.stroke();
  }
  sideMark(ctx, cx, cy, r, p.side, c);
  const crowned = p.rank === 'king' || p.rank === 'triple_king';
  const emblemScale = crowned ? 0.72 : 1;
  const emblemY = crowned ? cy + r * 0.2 : cy;
  if (kind === 'shield') drawShield(ctx, cx, emblemY, r * emblemScale, c);
  if (kind === 'bomb') drawBomb(ctx, cx, emblemY, r * emblemScale);
  if (crowned) {
    const plain = kind === 'normal';
    const size = plain ? r * 0.95 : r * 0.62;
    const y = plain ? cy + r * 0.02 : cy - r * 0.42;
    if (p.rank === 'triple_king') {
      drawCrown(ctx, cx - size * 0.55, y + size * 0.12, size * 0.6);
      drawCrown(ctx, cx + size * 0.55, y + size * 0.12, size * 0.6);
      drawCrown(ctx, cx, y - size * 0.05, size * 0.78);
    } else {
      drawCrown(ctx, cx, y, size);
    }
  }
  // Gloss.
  const hg = ctx.createRadialGradient(cx - r * 0.35, cy - r * 0.5, 0, cx - r * 0.35, cy - r * 0.5, r * 0.6);
  hg.addColorStop(0, 'rgba(255,255,255,0.35)');
  hg.addColorStop(1, 'rgba(255,255,255,0)');
  ctx.fillStyle = hg;
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();
}

// The side told by shape as well as colour: the first side's pieces (fire, black, x) carry a small
// triangle at their foot, the second's (water, white, o) a small ring.
const FIRST_SIDES = new Set(['fire', 'black', 'x']);
function sideMark(ctx, cx, cy, r, side, c) {
  const s = r * 0.15;
  const y = cy + r * 0.7;
  ctx.fillStyle = c.ink;
  ctx.strokeStyle = c.ink;
  ctx.lineWidth = r * 0.07;
  ctx.beginPath();
  if (FIRST_SIDES.has(side)) {
    ctx.moveTo(cx, y - s);
    ctx.lineTo(cx + s, y + s * 0.75);
    ctx.lineTo(cx - s, y + s * 0.75);
    ctx.closePath();
    ctx.fill();
  } else {
    ctx.arc(cx, y, s * 0.8, 0, Math.PI * 2);
    ctx.stroke();
  }
}

function drawShield(ctx, cx, cy, r, c) {
  const w = r * 0.62;
  const top = cy - r * 0.5;
  const bottom = cy + r * 0.56;
  ctx.beginPath();
  ctx.moveTo(cx, top - r * 0.04);
  ctx.quadraticCurveTo(cx + w * 0.55, top + r * 0.08, cx + w, top);
  ctx.quadraticCurveTo(cx + w * 1.02, cy + r * 0.15, cx, bottom);
  ctx.quadraticCurveTo(cx - w * 1.02, cy + r * 0.15, cx - w, top);
  ctx.quadraticCurveTo(cx - w * 0.55, top + r * 0.08, cx, top - r * 0.04);
  ctx.closePath();
  const g = ctx.createLinearGradient(cx - w, top, cx + w, bottom);
  g.addColorStop(0, '#ffffff');
  g.addColorStop(0.55, '#c9d0da');
  g.addColorStop(1, '#8b95a3');
  ctx.fillStyle = g;
  ctx.fill();
  ctx.strokeStyle = c.rim;
  ctx.lineWidth = r * 0.07;
  ctx.stroke();
  // A stripe in the side's colour.
  ctx.save();
  ctx.clip();
  ctx.fillStyle = c.mid;
  ctx.fillRect(cx - r * 0.1, top - r * 0.1, r * 0.2, r * 1.3);
  ctx.restore();
}

function drawBomb(ctx, cx, cy, r) {
  const br = r * 0.46;
  const by = cy + r * 0.06;
  const g = ctx.createRadialGradient(cx - br * 0.4, by - br * 0.45, br * 0.1, cx, by, br);
  g.addColorStop(0, '#6a6f7a');
  g.addColorStop(0.5, '#24262c');
  g.addColorStop(1, '#07080a');
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.arc(cx, by, br, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = 'rgba(0,0,0,0.6)';
  ctx.lineWidth = r * 0.04;
  ctx.stroke();
  // Cap and fuse.
  const capX = cx + br * 0.55;
  const capY = by - br * 0.78;
  ctx.save();
  ctx.translate(capX, capY);
  ctx.rotate(Math.PI / 4);
  ctx.fillStyle = '#3a3d45';
  ctx.fillRect(-br * 0.22, -br * 0.16, br * 0.44, br * 0.3);
  ctx.restore();
  ctx.strokeStyle = '#d9c9a3';
  ctx.lineWidth = r * 0.07;
  ctx.lineCap = 'round';
  ctx.beginPath();
  ctx.moveTo(capX + br * 0.1, capY - br * 0.1);
  ctx.quadraticCurveTo(capX + br * 0.5, capY - br * 0.6, capX + br * 0.3, capY - br * 0.75);
  ctx.stroke();
  star(ctx, capX + br * 0.3, capY - br * 0.8, r * 0.2, '#ffd23f');
  star(ctx, capX + br * 0.3, capY - br * 0.8, r * 0.1, '#fff6c8');
}

function drawCrown(ctx, cx, cy, size) {
  const w = size * 0.5;
  const h = size * 0.36;
  const base = cy + h * 0.5;
  const top = cy - h * 0.5;
  ctx.beginPath();
  ctx.moveTo(cx - w, base);
  ctx.lineTo(cx - w * 1.05, top);
  ctx.lineTo(cx - w * 0.5, cy);
  ctx.lineTo(cx, top - h * 0.25);
  ctx.lineTo(cx + w * 0.5, cy);
  ctx.lineTo(cx + w * 1.05, top);
  ctx.lineTo(cx + w, base);
  ctx.closePath();
  const g = ctx.createLinearGradient(cx, top, cx, base);
  g.addColorStop(0, '#fff1a8');
  g.addColorStop(0.5, '#f3c12f');
  g.addColorStop(1, '#c28a0c');
  ctx.fillStyle = g;
  ctx.fill();
  ctx.strokeStyle = '#6d4b00';
  ctx.lineWidth = Math.max(1, size * 0.05);
  ctx.lineJoin = 'round';
  ctx.stroke();
  ctx.fillStyle = '#fff8d0';
  for (const [x, y] of [
    [cx - w * 1.05, top],
    [cx, top - h * 0.25],
    [cx + w * 1.05, top],
  ]) {
    ctx.beginPath();
    ctx.arc(x, y, size * 0.06, 0, Math.PI * 2);
    ctx.fill();
  }
}
