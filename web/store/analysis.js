// The analysis board's slice: the variant and options, the position set up, the palette's pick,
// Kaboom's notation in the text box, and while exploring the position shown. (The explored line
// itself, the turns played from the position set up, is explore.js's own.)

export function newAnalysis() {
  return {
    variant: null,
    options: {}, // the variant's options, by name (booleans for bool options)
    pos: null, // the position set up (position_text.js's form)
    mode: 'setup', // or 'explore'
    tool: null, // the palette's pick: {side, kind, rank}, or 'erase'
    format: 'gamesman', // Kaboom's notation in the text box: 'gamesman' or 'fen'
    shown: null, // while exploring: the position shown
  };
}

export const analysisReducers = {
  'analysis/variant'(a, { variant, options }) {
    a.variant = variant;
    a.options = options;
  },
  'analysis/option'(a, { name, value }) {
    a.options = { ...a.options, [name]: value };
  },
  /** A Gamesman string brings its board's size. */
  'analysis/board_size'(a, { width, height }) {
    a.options = { ...a.options, width, height };
  },
  'analysis/position'(a, { pos }) {
    a.pos = pos;
  },
  'analysis/format'(a, { format }) {
    a.format = format;
  },
  'analysis/tool'(a, { tool }) {
    a.tool = tool;
  },
  'analysis/explore'(a) {
    a.mode = 'explore';
  },
  'analysis/setup'(a) {
    a.mode = 'setup';
    a.shown = null;
  },
  'analysis/shown'(a, { pos }) {
    a.shown = pos;
  },
};
