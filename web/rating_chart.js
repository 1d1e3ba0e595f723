// The chart of a player's ratings over time on their profile (profile.js): a line for each perf
// (a variant at a speed), from GET /api/players/{name}'s `history`, drawn on a canvas at the
// screen's pixel ratio, with its rating and date scales.

const COLOURS = ['#ff9347', '#3b9cff', '#41c98b', '#f3c12f', '#c77dff', '#ff6b8b', '#8fd0ff', '#d9c9a3'];

/** A perf's colour, the same in the chart and in its legend. */
export function perfColour(i) {
  return COLOURS[i % COLOURS.length];
}

/** A round step for about `n` marks between lo and hi. */
function niceStep(lo, hi, n) {
  const raw = Math.max(1, (hi - lo) / n);
  const mag = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
}

const shortDate = (ms) => new Date(ms).toLocaleDateString(undefined, { month: 'short', day: 'numeric' });

/**
 * Draws `lines` ([{points: [[ms, rating], ...]}], each in perfColour(i)) on `canvas`, which takes
 * the width of its box and a height of a third of it (at least 160 px).
 */
export function drawRatingChart(canvas, lines) {
  const width = Math.max(200, Math.round(canvas.clientWidth || canvas.parentElement?.clientWidth || 600));
  const height = Math.max(160, Math.round(width / 3));
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(height * dpr);
  canvas.style.height = `${height}px`;
  const g = canvas.getContext('2d');
  if (!g) return;
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, width, height);
  const points = lines.flatMap((l) => l.points);
  if (!points.length) return;

  let [t0, t1] = [Math.min(...points.map((p) => p[0])), Math.max(...points.map((p) => p[0]))];
  let [r0, r1] = [Math.min(...points.map((p) => p[1])), Math.max(...points.map((p) => p[1]))];
  if (t1 - t0 < 60000) [t0, t1] = [t0 - 3600000, t1 + 3600000]; // one game: an hour either side
  const step = niceStep(r0 - 20, r1 + 20, 4);
  r0 = Math.floor((r0 - 20) / step) * step;
  r1 = Math.ceil((r1 + 20) / step) * step;

  const pad = { left: 46, right: 14, top: 12, bottom: 24 };
  const x = (t) => pad.left + ((t - t0) / (t1 - t0)) * (width - pad.left - pad.right);
  const y = (r) => height - pad.bottom - ((r - r0) / (r1 - r0)) * (height - pad.top - pad.bottom);

  // The rating scale, and its lines across.
  g.font = '11px system-ui, sans-serif';
  g.textBaseline = 'middle';
  g.textAlign = 'right';
  for (let r = r0; r <= r1 + 1e-9; r += step) {
    g.strokeStyle = 'rgba(255, 255, 255, 0.07)';
    g.lineWidth = 1;
    g.beginPath();
    g.moveTo(pad.left, Math.round(y(r)) + 0.5);
    g.lineTo(width - pad.right, Math.round(y(r)) + 0.5);
    g.stroke();
    g.fillStyle = '#97a2bd';
    g.fillText(String(Math.round(r)), pad.left - 8, y(r));
  }
  // The dates at either end (and the middle, when there is room).
  g.textBaseline = 'alphabetic';
  const dates = [
    [t0, 'left'],
    [t1, 'right'],
  ];
  if (width > 420) dates.push([(t0 + t1) / 2, 'center']);
  for (const [t, align] of dates) {
    g.textAlign = align;
    g.fillText(shortDate(t), x(t), height - 6);
  }

  lines.forEach((line, i) => {
    const pts = [...line.points].sort((a, b) => a[0] - b[0]);
    g.strokeStyle = perfColour(i);
    g.fillStyle = perfColour(i);
    g.lineWidth = 2;
    g.lineJoin = 'round';
    g.beginPath();
    pts.forEach(([t, r], k) => (k ? g.lineTo(x(t), y(r)) : g.moveTo(x(t), y(r))));
    g.stroke();
    // A dot on each game while they are few enough to tell apart, and on the last one always.
    for (const [k, [t, r]] of pts.entries()) {
      if (pts.length > 40 && k !== pts.length - 1) continue;
      g.beginPath();
      g.arc(x(t), y(r), k === pts.length - 1 ? 3.5 : 2.5, 0, Math.PI * 2);
      g.fill();
    }
  });
}
