// The board on a <canvas>: drawing (crisp at any size and devicePixelRatio), animations of what the
// last turn did, and hit testing. It knows how things look, never what is legal: the app tells it
// which squares to highlight.
//
// Geometry: the canvas is exactly cols x rows equal cells, nothing else (no margins), so a square's
// pixel follows from the canvas box and the orientation alone. Not flipped: [0,0] bottom-left.
// Flipped (water's view): turned 180 degrees, [0,0] top-right.
//
// The layers under the pieces (squares, last turn, highlights) are drawn by board_layers.js, the
// pieces by pieces.js, the effects of a turn (falls, captures, blasts) by board_effects.js, the
// values of the turns (the Values toggle) by board_values.js.

import { asSquare, key, isPrefix } from './squares.js';
import { drawPiece } from './pieces.js';
import { drawCheckerboard, drawKaboomGrid, drawLast, drawUiOver, drawUiUnder } from './board_layers.js';
import { drawEffects } from './board_effects.js';
import { drawValueMarks } from './board_values.js';
import { isConnect } from './variants.js';

const HOP_MS = 200;
const FADE_MS = 520;
const BLAST_MS = 1100;
const PROMOTE_MS = 1000;
const FALL_MS = 420;
// A pulsing bomb alone is redrawn 15 times a second: its glow takes 1.6 s, and a full-rate redraw
// of the board kept a core busy for as long as a bomb could go off.
const PULSE_FRAME_MS = 66;
const TURN_MS = 450;

export class BoardView {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.state = null;
    this.cols = 8;
    this.rows = 8;
    this.kaboom = false;
    this.flipped = false;
    this.cssW = 0;
    this.cssH = 0;
    this.ui = {
      selected: null,
      targets: [],
      movable: [],
      detonatable: [],
      hover: null,
      ghost: null,
      premove: null,
      valueMarks: [],
    };
    this.labels = null; // the edges' labels in screen order, {cols, rows} (notation.js); null: a1-h8
    this.effects = [];
    this.shakeUntil = 0;
    this.turning = 0; // when the board began turning round (one screen), or 0
    this.raf = 0;
    this.pulseTimer = 0; // the next frame of a pulse alone, or 0
    this.reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  }

  // ---- geometry -------------------------------------------------------------------------------

  /** Sizes the canvas to the largest whole-pixel cells that fit in w x h CSS pixels. */
  fit(w, h) {
    const cell = Math.max(8, Math.floor(Math.min(w / this.cols, h / this.rows)));
    const cssW = cell * this.cols;
    const cssH = cell * this.rows;
    const dpr = window.devicePixelRatio || 1;
    const pw = Math.round(cssW * dpr);
    const ph = Math.round(cssH * dpr);
    if (cssW !== this.cssW || cssH !== this.cssH) {
      this.canvas.style.width = `${cssW}px`;
      this.canvas.style.height = `${cssH}px`;
      this.cssW = cssW;
      this.cssH = cssH;
    }
    if (this.canvas.width !== pw || this.canvas.height !== ph) {
      this.canvas.width = pw;
      this.canvas.height = ph;
    }
    this.draw();
    return { width: cssW, height: cssH, cell };
  }

  /** The labels along the edges (notation.js's edgeLabels); redraws only when they change. */
  setLabels(labels) {
    if (JSON.stringify(labels) === JSON.stringify(this.labels)) return;
    this.labels = labels;
    this.draw();
  }

  /** `animate`: the board is seen turning round (at one screen, where it turns with the turn);
   *  it is drawn in its new orientation at once, so clicks always mean what the data says. */
  setFlipped(f, animate = false) {
    const next = !!f && !this.kaboom;
    if (animate && next !== this.flipped && this.state && !this.reduceMotion) this.turning = performance.now();
    this.flipped = next;
    this.draw();
  }

  /** Screen cell (col from the left, row from the top) of board square [x,y]. */
  toScreen(sq) {
    const [x, y] = sq;
    if (this.flipped) return [this.cols - 1 - x, y];
    return [x, this.rows - 1 - y];
  }

  fromScreen(col, row) {
    if (this.flipped) return [this.cols - 1 - col, row];
    return [col, this.rows - 1 - row];
  }

  /** The board square under a client (viewport) point, or null. */
  squareAtClient(clientX, clientY) {
    const r = this.canvas.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return null;
    const col = Math.floor(((clientX - r.left) / r.width) * this.cols);
    const row = Math.floor(((clientY - r.top) / r.height) * this.rows);
    if (col < 0 || row < 0 || col >= this.cols || row >= this.rows) return null;
    return this.fromScreen(col, row);
  }

  cellPx() {
    return { w: this.canvas.width / this.cols, h: this.canvas.height / this.rows };
  }

  /** Center of square [x,y] in canvas pixels. */
  center(sq) {
    const [c, r] = this.toScreen(sq);
    const { w, h } = this.cellPx();
    return [(c + 0.5) * w, (r + 0.5) * h];
  }

  // ---- state and interaction ------------------------------------------------------------------

  setUi(ui) {
    this.ui = { ...this.ui, ...ui };
    this.draw();
  }

  /** Takes a new state; animates what changed if it follows the previous one directly. */
  setState(next) {
    const prev = this.state;
    this.state = next;
    const w = next.board?.width ?? 8;
    const h = next.board?.height ?? 8;
    const kaboom = isConnect(next.variant);
    const geometryChanged = w !== this.cols || h !== this.rows || kaboom !== this.kaboom;
    this.cols = w;
    this.rows = h;
    this.kaboom = kaboom;
    if (kaboom) this.flipped = false;
    const follows =
      prev &&
      !geometryChanged &&
      prev.room === next.room &&
      (prev.game ?? 0) === (next.game ?? 0) &&
      next.version === prev.version + 1;
    if (!follows) {
      this.effects = [];
      this.turning = 0;
    } else if (!this.reduceMotion) {
      this.animate(prev, next);
    }
    return geometryChanged;
  }

  /** Marks a square briefly: the gentle "not there" of an illegal click. */
  flash(sq) {
    this.addEffect({ type: 'flash', sq, dur: 450 });
  }

  // ---- animations -----------------------------------------------------------------------------

  addEffect(e) {
    e.t0 = performance.now() + (e.delay || 0);
    this.effects.push(e);
    this.loop();
  }

  animate(prev, next) {
    const last = next.last;
    if (!last || !Array.isArray(last.actions)) return;
    // The actions this state added: `last` may hold the whole turn so far or only the newest hop.
    let acts = last.actions;
    const pl = prev.last;
    if (
      pl &&
      pl.side === last.side &&
      prev.turn === pl.side &&
      Array.isArray(pl.actions) &&
      isPrefix(pl.actions, acts) &&
      pl.actions.length < acts.length
    ) {
      acts = acts.slice(pl.actions.length);
    }
    const before = new Map((prev.board?.pieces ?? []).map((p) => [key(p.at), p]));
    const after = new Map((next.board?.pieces ?? []).map((p) => [key(p.at), p]));
    const moves = acts.filter((a) => a.from && a.to);
    let moveEnd = 0;
    const captureDelay = new Map();
    let mover;
    let moverFrom = null;
    if (moves.length > 0) {
      const path = [moves[0].from, ...moves.map((a) => a.to)];
      moverFrom = path[0];
      const end = path[path.length - 1];
      const landed = after.get(key(end));
      const started = before.get(key(moverFrom));
      mover = landed ?? started;
      moveEnd = HOP_MS * moves.length;
      if (mover) {
        this.addEffect({
          type: 'move',
          piece: started ?? mover,
          final: landed ?? null,
          path,
          dur: moveEnd,
          hide: landed ? key(end) : null,
        });
      }
      // A piece jumped over fades as the mover passes it.
      moves.forEach((a, i) => {
        if (a.kind !== 'jump') return;
        const [fx, fy] = a.from;
        const [tx, ty] = a.to;
        const dx = Math.sign(tx - fx);
        const dy = Math.sign(ty - fy);
        for (let x = fx + dx, y = fy + dy; x !== tx; x += dx, y += dy) {
          captureDelay.set(key([x, y]), HOP_MS * (i + 0.55));
        }
      });
      if (landed && started && landed.rank !== started.rank) {
        this.addEffect({ type: 'promote', sq: end, dur: PROMOTE_MS, delay: moveEnd });
      }
    }
    const exploded = (last.exploded ?? []).map(asSquare).filter(Boolean);
    if (exploded.length > 0 && acts.length > 0) {
      this.addEffect({ type: 'blast', squares: exploded, dur: BLAST_MS, delay: moveEnd, seed: next.version });
    }
    // Every piece that is gone (or replaced) fades out where it stood. In Kaboom pieces also fall
    // into emptied cells, so there only the blasted cells count.
    const blasted = new Set(exploded.map(key));
    for (const [k, p] of before) {
      if (moverFrom && k === key(moverFrom)) continue;
      const now = after.get(k);
      if (this.kaboom ? !blasted.has(k) : now && now.side === p.side && now.kind === p.kind) continue;
      const delay = captureDelay.get(k) ?? moveEnd;
      this.addEffect({ type: 'fade', piece: p, dur: FADE_MS, delay });
    }
    if (this.kaboom) this.animateKaboom(prev, next, acts, before, after, exploded);
  }

  animateKaboom(prev, next, acts, before, after, exploded) {
    const drop = acts.find((a) => a.kind === 'drop');
    if (drop) {
      const col = drop.column;
      const fresh = (next.board?.pieces ?? [])
        .filter((p) => p.at[0] === col && !before.has(key(p.at)))
        .sort((a, b) => b.at[1] - a.at[1])[0];
      if (fresh) {
        this.addEffect({ type: 'fall', piece: fresh, fromY: this.rows + 0.2, dur: FALL_MS, hide: key(fresh.at) });
      }
      return;
    }
    // After a detonation the survivors of each column fall together: pair them up in order.
    const gone = new Set(exploded.map(key));
    for (let c = 0; c < this.cols; c++) {
      const was = (prev.board?.pieces ?? [])
        .filter((p) => p.at[0] === c && !gone.has(key(p.at)))
        .sort((a, b) => a.at[1] - b.at[1]);
      const now = (next.board?.pieces ?? []).filter((p) => p.at[0] === c).sort((a, b) => a.at[1] - b.at[1]);
      if (was.length !== now.length) continue;
      now.forEach((p, i) => {
        if (was[i].at[1] !== p.at[1]) {
          this.addEffect({
            type: 'fall',
            piece: p,
            fromY: was[i].at[1],
            dur: FALL_MS,
            delay: 500,
            hide: key(p.at),
            hold: true,
          });
        }
      });
    }
  }

  /** Whether the next frame would differ: effects under way, a shake, or the board turning. */
  moving(now) {
    return this.effects.length > 0 || now < this.shakeUntil || this.turning > 0;
  }

  /** Whether a bomb that can go off pulses (a slow glow: not redrawn at the full frame rate). */
  pulsing() {
    return this.ui.detonatable.length > 0 && !this.reduceMotion;
  }

  // At most one frame is ever requested: draw() (from anywhere) asks for the next one through here,
  // so a frame that draws cannot schedule a second callback of its own.
  loop() {
    if (this.raf) return;
    clearTimeout(this.pulseTimer);
    this.pulseTimer = 0;
    this.raf = requestAnimationFrame(() => {
      this.raf = 0;
      const now = performance.now();
      this.effects = this.effects.filter((e) => now < e.t0 + e.dur);
      this.draw(now);
    });
  }

  // ---- drawing --------------------------------------------------------------------------------

  draw(now = performance.now()) {
    const { ctx, canvas } = this;
    if (!canvas.width || !canvas.height) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    const { w, h } = this.cellPx();
    this.turnRound(now);
    const blasting = this.effects.find((e) => e.type === 'blast' && now >= e.t0 && now < e.t0 + 350);
    if (blasting) {
      const k = 1 - (now - blasting.t0) / 350;
      const amp = Math.min(w, h) * 0.05 * k;
      ctx.translate((Math.random() - 0.5) * 2 * amp, (Math.random() - 0.5) * 2 * amp);
    }
    if (this.kaboom) drawKaboomGrid(this, w, h);
    else drawCheckerboard(this, w, h);
    drawLast(this, w, h);
    drawUiUnder(this, w, h, now);
    this.drawPieces(w, h, now);
    drawUiOver(this, w, h, now);
    drawValueMarks(this, w, h);
    drawEffects(this, w, h, now);
    if (this.moving(now)) this.loop();
    else if (this.pulsing()) this.pulseLater();
  }

  /** The pulse's next frame, PULSE_FRAME_MS from now (one at a time). */
  pulseLater() {
    if (this.pulseTimer) return;
    this.pulseTimer = setTimeout(() => {
      this.pulseTimer = 0;
      this.loop();
    }, PULSE_FRAME_MS);
  }

  /** While the board turns round: the old orientation (half a turn away) turning into the new
   *  one, shrunk to stay inside the canvas at every angle. */
  turnRound(now) {
    if (!this.turning) return;
    const t = (now - this.turning) / TURN_MS;
    if (t >= 1) {
      this.turning = 0;
      return;
    }
    const a = Math.PI * (1 - (1 - (1 - t) ** 3));
    const k = 1 / (Math.abs(Math.cos(a)) + Math.abs(Math.sin(a)));
    const { ctx, canvas } = this;
    ctx.translate(canvas.width / 2, canvas.height / 2);
    ctx.rotate(a);
    ctx.scale(k, k);
    ctx.translate(-canvas.width / 2, -canvas.height / 2);
  }

  cellRect(sq) {
    const [c, r] = this.toScreen(sq);
    const { w, h } = this.cellPx();
    const x0 = Math.round(c * w);
    const y0 = Math.round(r * h);
    return [x0, y0, Math.round((c + 1) * w) - x0, Math.round((r + 1) * h) - y0];
  }

  drawPieces(w, h, now) {
    const m = Math.min(w, h);
    const hidden = new Set();
    for (const e of this.effects) {
      if (e.hide && (now < e.t0 + e.dur || e.hold)) hidden.add(e.hide);
    }
    const r = m * (this.kaboom ? 0.4 : 0.39);
    for (const p of this.state?.board?.pieces ?? []) {
      if (hidden.has(key(p.at))) continue;
      const [cx, cy] = this.center(p.at);
      drawPiece(this.ctx, cx, cy, r, p);
    }
  }
}
