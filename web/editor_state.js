// What the analysis board's modules share: the variant and options, the position being set up or
// explored, and the `analyse` request for a position.

import { t } from './i18n.js';
import { analysis, app } from './store/store.js';
import { humanize, sideName } from './ui.js';
import { requestAnalysis, valueWords } from './values.js';
import { formatFen, sidesOf, toWire } from './position_text.js';

/** The analysis board's state (store/analysis.js), to read; `dispatch` changes it. */
export const ed = analysis;

/** The position the analysis board shows: the explored one while exploring, else the one set up. */
export const currentPos = () => (ed.mode === 'explore' ? (ed.shown ?? ed.pos) : ed.pos);

/**
 * The set-up view's own functions, filled in by editor.js when it loads (as screen.js is by the
 * game view), so that exploring (explore.js) and Play from here (editor_play.js) change what it
 * shows without importing it.
 */
export const editorView = {
  /** Sets up `pos` on the board: its turn, bombs, text and address, and checks it. */
  setPosition() {},
  /** What follows the position shown, in setup and explore alike: its text and the address. */
  positionShown() {},
};

export const edSides = () => sidesOf(ed.variant);

/** The variant's option specs, from the server's welcome. */
export function optionSpecs(variant = ed.variant) {
  return app.variants.find((v) => v.id === variant)?.options ?? [];
}

/** The variant's default options. */
export function defaultOptions(variant) {
  const o = {};
  for (const s of optionSpecs(variant)) o[s.name] = s.type === 'bool' ? !!s.default : (s.default ?? s.min ?? 0);
  return o;
}

/** Asks the server about a position: its value, and with `moves` every turn's. */
export function analyse(pos, moves) {
  return requestAnalysis({ variant: ed.variant, options: ed.options, position: toWire(pos), moves });
}

/**
 * The analysis board's address for a position: /analysis?variant=V&<options that differ from the
 * defaults>&fen=<FEN-like line>, which opens it again (a link to share, or a reload).
 */
export function analysisLink(pos, options) {
  const params = [`variant=${encodeURIComponent(pos.variant)}`];
  const defaults = defaultOptions(pos.variant);
  for (const [name, v] of Object.entries(options ?? {})) {
    if (name in defaults && v === defaults[name]) continue;
    params.push(`${encodeURIComponent(name)}=${typeof v === 'boolean' ? Number(v) : encodeURIComponent(v)}`);
  }
  // ':' and ',' may stand in a query as they are, which keeps the line readable.
  params.push(`fen=${encodeURIComponent(formatFen(pos)).replace(/%3A/g, ':').replace(/%2C/g, ',')}`);
  return `/analysis?${params.join('&')}`;
}

/** "X to move: X wins in 3 turns". */
export function positionWords(a) {
  return t('ed.position_words', { side: sideName(a.turn), value: valueWords(a.value, a.turn, edSides()) });
}

const OVER = ['no_pieces', 'no_moves', 'mutual_destruction', 'connect', 'board_full'];

/** The words for an `analyse` refused: the server's reason, said as such. */
export function refusal(err) {
  const msg = err?.message ?? t('ed.no_answer');
  if (err?.code === 'bad_position') {
    const over = /already be over \((\w+)\)/.exec(msg);
    if (over) {
      const why = OVER.includes(over[1]) ? t(`ed.over_${over[1]}`) : humanize(over[1]).toLowerCase();
      return t('ed.over_in_position', { why });
    }
    return t('ed.refuses_position', { msg });
  }
  if (err?.code === 'unknown_type') return t('ed.no_analysis');
  if (err?.code === 'bad_options') return t('ed.refuses_options', { msg });
  return msg;
}
