// Sounds, synthesized with WebAudio (no files): a move, a capture, an explosion, low time, the end
// of a game. The mute button in the top bar is remembered by the browser. Without WebAudio, or
// while the browser keeps it suspended (no click on the page yet), nothing is heard and nothing
// fails.

import { t } from './i18n.js';
import { $ } from './ui.js';
import { saved } from './store/saved.js';
import { isTakeback } from './store/game.js';

let ctx = null;
let noise = null;
// A running AudioContext renders silence hundreds of times a second for as long as it lives: it is
// suspended once its sounds have ended, and resumed for the next one (the page's first gesture
// allows that from then on).
const IDLE_MS = 1500; // the longest sound (the end of a game, after a move) takes about 0.9 s
let idleTimer = 0;
let started = false; // the context has run once: a gesture allowed it

/** The sounds asked for (muted or not), newest last, for tests and the curious. */
export const played = [];

function audio() {
  if (ctx) return ctx;
  const AC = window.AudioContext ?? window.webkitAudioContext;
  if (!AC) return null;
  try {
    ctx = new AC();
  } catch {
    ctx = null;
  }
  return ctx;
}

/** The context's state ('running', 'suspended', 'closed'), or 'none': for tests. */
export const audioState = () => ctx?.state ?? 'none';

/** Suspends the context IDLE_MS after its last sound (or its waking) unless another comes. */
function idleLater() {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (ctx?.state === 'running') ctx.suspend().catch(() => {});
  }, IDLE_MS);
}

/** Resolves with the context once it runs, or null if it cannot run yet (no gesture so far). */
async function running() {
  const c = audio();
  if (!c) return null;
  if (c.state === 'suspended' && started) await c.resume();
  if (c.state !== 'running') return null;
  started = true;
  idleLater();
  return c;
}

/** Browsers start audio only after a gesture: the first click or key wakes it up. */
function wake() {
  if (started) return;
  try {
    const c = audio();
    if (c?.state === 'suspended') {
      c.resume().then(
        () => {
          started = c.state === 'running';
          if (started) idleLater();
        },
        () => {},
      );
    }
  } catch {
    // no sound, then
  }
}
for (const ev of ['pointerdown', 'keydown']) window.addEventListener(ev, wake, { capture: true, passive: true });

/** One tone: frequency `f` (or a glide from f[0] to f[1]), from `t` for `dur` seconds. */
function tone(c, out, f, t, dur, { type = 'sine', gain = 0.2 } = {}) {
  const o = c.createOscillator();
  const g = c.createGain();
  o.type = type;
  const [f0, f1] = Array.isArray(f) ? f : [f, f];
  o.frequency.setValueAtTime(f0, t);
  if (f1 !== f0) o.frequency.exponentialRampToValueAtTime(f1, t + dur);
  g.gain.setValueAtTime(0.0001, t);
  g.gain.exponentialRampToValueAtTime(gain, t + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t + dur);
  o.connect(g).connect(out);
  o.start(t);
  o.stop(t + dur + 0.02);
}

/** A burst of noise through a closing low-pass filter: the blast. */
function boom(c, out, t) {
  if (!noise) {
    noise = c.createBuffer(1, c.sampleRate, c.sampleRate);
    const d = noise.getChannelData(0);
    for (let i = 0; i < d.length; i++) d[i] = Math.random() * 2 - 1;
  }
  const src = c.createBufferSource();
  src.buffer = noise;
  const lp = c.createBiquadFilter();
  lp.type = 'lowpass';
  lp.frequency.setValueAtTime(2400, t);
  lp.frequency.exponentialRampToValueAtTime(80, t + 0.7);
  const g = c.createGain();
  g.gain.setValueAtTime(0.5, t);
  g.gain.exponentialRampToValueAtTime(0.0001, t + 0.8);
  src.connect(lp).connect(g).connect(out);
  src.start(t);
  src.stop(t + 0.85);
  tone(c, out, [110, 40], t, 0.5, { gain: 0.35 });
}

const SOUNDS = {
  move: (c, out, t) => tone(c, out, [620, 520], t, 0.08, { type: 'triangle', gain: 0.25 }),
  capture: (c, out, t) => {
    tone(c, out, 700, t, 0.07, { type: 'square', gain: 0.08 });
    tone(c, out, [460, 300], t + 0.07, 0.12, { type: 'square', gain: 0.08 });
  },
  explosion: boom,
  low: (c, out, t) => {
    tone(c, out, 990, t, 0.1, { gain: 0.18 });
    tone(c, out, 990, t + 0.16, 0.1, { gain: 0.18 });
  },
  end: (c, out, t) =>
    [523, 659, 784, 1047].forEach((f, i) => tone(c, out, f, t + i * 0.11, 0.22, { type: 'triangle', gain: 0.16 })),
};

/** Plays a sound by name, after `delay` seconds; never throws. */
export function playSound(name, delay = 0) {
  played.push(name);
  if (played.length > 50) played.shift();
  if (saved.muted || !SOUNDS[name]) return;
  running()
    .then((c) => {
      if (c) SOUNDS[name](c, c.destination, c.currentTime + delay);
    })
    .catch(() => {
      // a sound is never worth an error
    });
}

/** The sound of a new state after `prev`: the turn just played, then the end of the game. */
export function soundOfState(prev, s) {
  if (!prev || prev.room !== s.room || prev.game !== s.game) return;
  const moved = s.version > prev.version && s.last && !isTakeback(prev, s); // a takeback's `last` is an old turn
  if (moved) {
    if (s.last.exploded?.length) playSound('explosion');
    else if (s.last.captured?.length) playSound('capture');
    else playSound('move');
  }
  if (prev.status === 'playing' && s.status === 'finished') playSound('end', moved ? 0.35 : 0);
}

// ---- the mute button ----------------------------------------------------------------------

function showMute() {
  const btn = $('#sound-toggle');
  const muted = saved.muted;
  btn.setAttribute('aria-pressed', String(muted));
  btn.title = muted ? t('sound.off') : t('html.mute_sounds');
  btn.querySelector('use').setAttribute('href', muted ? '#i-muted' : '#i-sound');
}
$('#sound-toggle').addEventListener('click', () => {
  saved.muted = !saved.muted;
  showMute();
});
showMute();
