// Position and turn values from the server's `analyse` (PROTOCOL.md, Analysis): the request as a
// promise, the words ("X wins in 7") and the Gamesman colours (green win, yellow tie, red lose;
// estimates shaded by their score).

import { t } from './i18n.js';
import { net } from './context.js';
import { sideName } from './ui.js';

const waiting = new Map(); // request id -> {resolve, reject, timer}
const TIMEOUT_MS = 15000;

/**
 * Sends an `analyse` request; resolves with the `analysis` or `analysis_history` answer, rejects
 * with the server's `error` (an object with `code` and `message`) or when no answer comes.
 */
export function requestAnalysis(fields) {
  return new Promise((resolve, reject) => {
    const id = net.send({ type: 'analyse', ...fields });
    if (id === null) {
      reject({ code: 'offline', message: t('values.offline') });
      return;
    }
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject({ code: 'timeout', message: t('values.timeout') });
    }, TIMEOUT_MS);
    waiting.set(id, { resolve, reject, timer });
  });
}

/** Takes the answers (and errors) to our analyse requests; true when `msg` was one. */
export function onAnalysisReply(msg) {
  const w = waiting.get(msg.id);
  if (!w) return false;
  waiting.delete(msg.id);
  clearTimeout(w.timer);
  if (msg.type === 'error') w.reject(msg);
  else w.resolve(msg);
  return true;
}

/** The other side of a two-sided variant. */
function other(sides, side) {
  return sides[0] === side ? sides[1] : sides[0];
}

const turnsText = (n) => t('values.turns', { count: n });

/** Where a tie ranks among values, just below 0: the nearer its drawn end the higher (Gamesman's
 *  order); one whose distance the server could not afford, last among ties. */
export const tieRank = (v) => -Math.min(v.remoteness ?? 999, 999) / 1000;

/**
 * A value in words for a reader who knows whose it is: `side` is the side the value belongs to,
 * `sides` the variant's two sides. "X wins in 7", "Tie in 9 turns", "Fire is ahead by 1.25 (depth 9)".
 */
export function valueWords(value, side, sides) {
  if (!value) return '';
  const who = sideName(side);
  const them = sideName(other(sides, side));
  if (value.outcome === 'tie')
    return value.remoteness > 0 ? t('values.tie_in', { n: turnsText(value.remoteness) }) : t('values.tie');
  if (value.outcome === 'win' || value.outcome === 'lose') {
    const winner = value.outcome === 'win' ? who : them;
    const sure = value.kind === 'solved' ? '' : ` ${t('values.by_search')}`;
    if (value.remoteness === 0) return t('values.has_won', { side: winner });
    return `${t('values.wins_in', { side: winner, n: turnsText(value.remoteness) })}${sure}`;
  }
  const pawns = (Math.abs(value.score) / 100).toFixed(2);
  const depth = ` ${value.depth ? t('values.estimate_depth', { depth: value.depth }) : t('values.estimate')}`;
  if (Math.abs(value.score) < 10) return `${t('values.even')}${depth}`;
  return `${t('values.ahead', { side: value.score > 0 ? who : them, pawns })}${depth}`;
}

/** Gamesman's colours: a CSS colour for a value (estimates shaded from red through yellow to green). */
export function valueColour(value) {
  if (!value) return 'transparent';
  if (value.outcome === 'win') return '#1fae4b';
  if (value.outcome === 'lose') return '#d8333a';
  if (value.outcome === 'tie' || value.kind === 'solved') return '#e8c51d';
  // score -> -1..1 with a soft knee at about two men
  const t = Math.tanh((value.score ?? 0) / 200);
  const hue = 55 + t * 65; // 120 green .. 55 yellow .. -10 red
  return `hsl(${hue.toFixed(0)} 70% 45%)`;
}

/**
 * A number for charts: +1 a win for `side`, -1 a loss, 0 a tie, estimates squashed in between
 * (a proved win or loss at the ends).
 */
export function valueNumber(value) {
  if (!value) return 0;
  if (value.outcome === 'win') return 1;
  if (value.outcome === 'lose') return -1;
  if (value.outcome === 'tie') return 0;
  return Math.tanh((value.score ?? 0) / 300) * 0.9;
}
