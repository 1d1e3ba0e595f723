// What the analysis board's modules share: the variant and options, the position being set up or
// explored, and the `analyse` request for a position.

import { app } from './state.js';
import { requestAnalysis } from './values.js';
import { formatFen, sidesOf, toWire } from './position_text.js';

export const ed = {
  variant: null,
  options: {}, // the variant's options, by name (booleans for bool options)
  pos: null, // the position on the board (position_text.js's form)
  mode: 'setup', // or 'explore'
  tool: null, // the palette's pick: {side, kind, rank}, or 'erase'
  format: 'gamesman', // Kaboom's notation in the text box: 'gamesman' or 'fen'
};

export const edSides = () => sidesOf(ed.variant);

/** The variant's option specs, from the server's welcome. */
export function optionSpecs(variant = ed.variant) {
  return app.variants.find((v) => v.id === variant)?.options ?? [];
}

/** The variant's default options. */
export function defaultOptions(variant) {
  const o = {};
  for (const s of optionSpecs(variant)) o[s.name] = s.type === 'bool' ? !!s.default : s.default ?? s.min ?? 0;
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
