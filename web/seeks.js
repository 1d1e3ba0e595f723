// Open seeks (docs/PLAYERS.md, "Seeks"): a rated room whose free seat only a player rated within its
// range may take. The perf of a clock (lichess's estimate of a game's length), our rating in it, a
// range in words, whether a listed seek is one we may take, and the New game form's choice of a
// range (any, or so many points around our rating, or the lowest and highest of our choice).

import { t } from './i18n.js';
import { $, h } from './ui.js';
import { app } from './store/store.js';
import { speedInText, speedName } from './account.js';

export const LOWEST = 0;
export const HIGHEST = 4000;
const NEW_RATING = 1500;

/** A Fischer clock's speed (base and increment in seconds): lichess's estimate, base + 40 increments. */
export function speedOfClock(base, increment) {
  const s = Math.floor(Math.round((base + 40 * increment) * 1000) / 1000);
  if (s < 180) return 'bullet';
  if (s < 480) return 'blitz';
  if (s < 1500) return 'rapid';
  if (s < 21600) return 'classical';
  return 'correspondence';
}

/** The perf of a `create`'s clock ({base, increment} or {days}) in `variant`; null untimed. */
export function perfOfClock(variant, clock) {
  if (!variant || !clock) return null;
  if (clock.days) return `${variant}:correspondence`;
  return `${variant}:${speedOfClock(clock.base, clock.increment)}`;
}

/** The perf of a room of /api/rooms, from its clock as text ("5+3", "20s+1", "3d", "12h"). */
export function perfOfListed(room) {
  const c = String(room.clock ?? '');
  if (/^\d+(?:\.\d+)?[dh]$/.test(c)) return `${room.variant}:correspondence`;
  const m = /^(\d+(?:\.\d+)?)(s?)\+(\d+(?:\.\d+)?)$/.exec(c);
  if (!m) return null;
  return perfOfClock(room.variant, { base: Number(m[1]) * (m[2] ? 1 : 60), increment: Number(m[3]) });
}

/** Our rating in `perf` as the server compares it (rounded): 1500 for a perf we have not played. */
export function ratingIn(perf) {
  const r = app.me?.ratings?.find((x) => x.perf === perf);
  return r ? Math.round(r.rating) : NEW_RATING;
}

/** "Blitz" for "bomb:blitz"; empty for no perf. */
function speedOf(perf) {
  return perf ? speedName(perf.split(':')[1]) : '';
}

/** A range in words: "1300–1700", "1600 and up", "up to 1700", "any rating". */
export function rangeText(range) {
  if (!range) return t('seeks.any');
  const low = range.min ?? LOWEST;
  const high = range.max ?? HIGHEST;
  if (low <= LOWEST && high >= HIGHEST) return t('seeks.any');
  if (high >= HIGHEST) return t('seeks.and_up', { low });
  if (low <= LOWEST) return t('seeks.up_to', { high });
  return `${low}–${high}`;
}

/** A range as a room's pill shows it: "1300–1700", "1600+", "≤1700". */
export function rangeShort(range) {
  const low = range?.min ?? LOWEST;
  const high = range?.max ?? HIGHEST;
  if (high >= HIGHEST) return low <= LOWEST ? 'any' : `${low}+`;
  return low <= LOWEST ? `≤${high}` : `${low}–${high}`;
}

/** Why we may not take a listed seek's free seat (our rating in its perf outside its range), or
 *  null when we may (or it is no seek). A seat this browser holds there is taken back regardless. */
export function seekBlocker(room, holdsSeat = false) {
  if (!room.rated || !room.range || app.accounts !== true || holdsSeat) return null;
  const perf = perfOfListed(room);
  const mine = ratingIn(perf);
  const low = room.range.min ?? LOWEST;
  const high = room.range.max ?? HIGHEST;
  if (mine >= low && mine <= high) return null;
  const speed = speedOf(perf);
  const range = rangeText(room.range);
  return speed
    ? t('seeks.for_ratings', { range, speed: speedInText(speed), mine })
    : t('seeks.for_ratings_any', { range, mine });
}

/** The seat to ask for in a listed room: a seek's free side by name, so that a rating out of its
 *  range is refused with the server's reason (rating_out_of_range) rather than seated as a watcher. */
export function seatToAsk(room, seats) {
  if (!room.rated || !room.range) return 'any';
  const free = seats.filter((x) => x.name === null);
  return free.length === 1 ? free[0].side : 'any';
}

// ---- the New game form's range ------------------------------------------------------------------

const AROUND = [100, 200, 300, 500];

/** The range `d` points either side of `rating`, within the server's bounds. */
function around(rating, d) {
  return { min: Math.max(LOWEST, rating - d), max: Math.min(HIGHEST, rating + d) };
}

let shownFor = { perf: null, rating: NEW_RATING };

/** Shows the range's choice when `shown` (Rated ticked), its options worded around our rating in
 *  `perf` (the form's variant and clock). */
export function renderRangeChoice(perf, shown) {
  $('#rated-range-box').hidden = !shown;
  if (!shown) return;
  const rating = ratingIn(perf);
  const sel = $('#rated-range');
  if (!sel.options.length || shownFor.perf !== perf || shownFor.rating !== rating) {
    const keep = sel.value || 'any';
    sel.replaceChildren(
      h('option', { value: 'any' }, t('seeks.any_option')),
      ...AROUND.map((d) => h('option', { value: String(d) }, `±${d} (${rangeText(around(rating, d))})`)),
      h('option', { value: 'custom' }, t('seeks.custom')),
    );
    sel.value = keep;
    shownFor = { perf, rating };
  }
  const custom = sel.value === 'custom';
  $('#rated-range-custom').hidden = !custom;
  const speed = speedOf(perf);
  const yours = speed ? t('seeks.yours', { speed: speedInText(speed), rating }) : t('seeks.yours_any', { rating });
  const chosen = chosenRange(perf);
  $('#rated-range-note').textContent = chosen.error
    ? `${yours} ${chosen.error}`
    : chosen.range
      ? `${yours} ${t('seeks.only', { range: rangeText(chosen.range) })}`
      : `${yours} ${t('seeks.anyone')}`;
}

function wholeRating(input) {
  const t = input.value.trim();
  if (t === '') return { value: null };
  const n = Number(t);
  if (!Number.isInteger(n) || n < LOWEST || n > HIGHEST) return { error: true };
  return { value: n };
}

/**
 * The `range` for `create`: {range} (null: anyone), or {error, input} when the lowest and highest
 * typed are not whole ratings 0 to 4000, the lowest at most the highest.
 */
export function chosenRange(perf) {
  if ($('#rated-range-box').hidden) return { range: null };
  const v = $('#rated-range').value;
  if (AROUND.includes(Number(v))) return { range: around(ratingIn(perf), Number(v)) };
  if (v !== 'custom') return { range: null };
  const low = wholeRating($('#rated-min'));
  const high = wholeRating($('#rated-max'));
  const bad = t('seeks.bad', { low: LOWEST, high: HIGHEST });
  if (low.error) return { error: bad, input: $('#rated-min') };
  if (high.error) return { error: bad, input: $('#rated-max') };
  if (low.value === null && high.value === null) return { range: null };
  if (low.value !== null && high.value !== null && low.value > high.value)
    return { error: bad, input: $('#rated-min') };
  const range = {};
  if (low.value !== null) range.min = low.value;
  if (high.value !== null) range.max = high.value;
  return { range };
}
