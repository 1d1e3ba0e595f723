// The puzzles' slice (docs/PUZZLES.md, "The page"): the collection's list, the puzzle open, the
// position on its board and how far along the line the player is. The rules and the timers are
// puzzle_play.js's; this only records what happened.

export function newPuzzle() {
  return {
    list: null, // the collection's summaries (GET /api/puzzles), or null until they come
    puzzle: null, // the PUZZLE open (GET /api/puzzles/{id})
    start: null, // its position (position_text.js's form)
    step: 0, // the line's turns played on the board
    base: null, // the position the turn under way began from
    pos: null, // the position on the board (mid-turn: after the hops so far)
    last: null, // the turn that led to it: {side, actions, captured, exploded}
    partial: [], // the actions of the player's turn under way (a multi-jump's hops so far)
    selected: null, // the piece picked, or the one that goes on jumping
    bomb: false, // Kaboom: the next drop is a bomb
    // 'solving', 'reply' (the line's answer comes), 'wrong', 'also' (a turn that wins too but is
    // not the line's, taken back), 'solved', 'solution'
    mode: 'idle',
    wrong: null, // the words of the wrong (or other winning) turn just taken back
    shown: 0, // a number for each position shown: the board animates only a turn played forward
  };
}

function show(p, pos, last, animate) {
  p.pos = pos;
  p.base = pos;
  p.bomb = false; // the bomb switch is for one drop
  p.last = last;
  p.shown += animate ? 1 : 2;
}

export const puzzleReducers = {
  'puzzle/list'(p, { list }) {
    p.list = list;
  },
  'puzzle/open'(p, { puzzle, start }) {
    Object.assign(p, newPuzzle(), { list: p.list, shown: p.shown, puzzle, start, mode: start ? 'solving' : 'idle' });
    show(p, start, null, false);
  },
  'puzzle/select'(p, { square }) {
    p.selected = square;
  },
  'puzzle/bomb'(p, { on }) {
    p.bomb = on;
  },
  /** A hop of a multi-jump: the turn goes on from `pos`, with `selected` the piece still jumping. */
  'puzzle/partial'(p, { actions, pos, last, selected }) {
    p.partial = actions;
    p.selected = selected;
    p.mode = 'solving';
    p.wrong = null;
    const base = p.base;
    show(p, pos, last, true);
    p.base = base; // the turn is not over: it goes on from where it began
  },
  /** A turn of the line on the board: the player's right one, the reply, or the solution's. */
  'puzzle/step'(p, { pos, last, mode }) {
    p.step += 1;
    p.partial = [];
    p.selected = null;
    p.wrong = null;
    p.mode = mode;
    show(p, pos, last, true);
  },
  /** A wrong turn (or, `also`, one that wins too but is not the line's), taken back at once: the
   *  position before it again, with its words. */
  'puzzle/wrong'(p, { text, pos, last, also = false }) {
    p.partial = [];
    p.selected = null;
    p.mode = also ? 'also' : 'wrong';
    p.wrong = text;
    show(p, pos, last, false);
  },
  'puzzle/retry'(p) {
    p.mode = 'solving';
    p.wrong = null;
  },
  /** Back to the puzzle's start (Try again), or on to the solution from the position shown. */
  'puzzle/restart'(p) {
    Object.assign(p, { step: 0, partial: [], selected: null, wrong: null, mode: 'solving' });
    show(p, p.start, null, false);
  },
  'puzzle/solution'(p, { pos, last }) {
    p.partial = [];
    p.selected = null;
    p.mode = 'solution';
    if (pos) show(p, pos, last, false);
  },
};
