// The rules core in the browser (docs/ENGINE.md): core/ compiled to WebAssembly
// (web/engine/core.wasm, built by scripts/build-wasm.sh), behind a small API of positions in the
// page's own shape. The server stays the only judge of a networked game; the page uses this where
// no server is asked: the analysis board's turns, premoves, play with no server.

let loading = null;

/**
 * The engine, loaded once. `init` goes to the loader: in node, `{ wasmBinary }` (the bytes, since
 * the loader would fetch them).
 */
export function loadEngine(init = {}) {
  // The loader and the WebAssembly come with the first call, not with the page: only the views
  // that play the rules themselves pay for them.
  loading ??= import('./engine/core.mjs')
    .then(({ default: createCore }) => createCore(init))
    .then((m) => new Engine(m));
  return loading;
}

/** A position as the core reads it: "turn;bombs,bombs;x,y,side,kind,rank;..." (wasm/engine.cpp). */
const KINDS = ['normal', 'shield', 'bomb'];
const RANKS = ['man', 'king', 'triple_king'];

function optionsText(options = {}) {
  return Object.entries(options)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${k}=${typeof v === 'boolean' ? v : Math.trunc(Number(v))}`)
    .join(',');
}

export class Engine {
  constructor(m) {
    this.create_ = m.cwrap('bc_create', 'number', ['string', 'string']);
    this.fromPosition_ = m.cwrap('bc_from_position', 'number', ['string', 'string', 'string']);
    this.state_ = m.cwrap('bc_state', 'string', ['number']);
    this.apply_ = m.cwrap('bc_apply', 'number', ['number', 'number']);
    this.effects_ = m.cwrap('bc_effects', 'string', []);
    this.free_ = m.cwrap('bc_free', null, ['number']);
    this.perft_ = m.cwrap('bc_perft', 'number', ['number', 'number']);
    this.error_ = m.cwrap('bc_error', 'string', []);
    this.sides_ = m.cwrap('bc_sides', 'string', ['string']);
    this.turns_ = m.cwrap('bc_turns', 'number', ['number']);
    this.afterTurn_ = m.cwrap('bc_after_turn', 'number', ['number', 'number']);
  }

  /** The variant's sides, first then second: ['fire', 'water']. */
  sides(variant) {
    const s = this.sides_(variant);
    if (!s) throw new Error(`no such variant: ${variant}`);
    return s.split(',');
  }

  /** The start of `variant` with `options` ({width: 9, misere: true, ...}); a Game. */
  start(variant, options = {}) {
    return this.game_(this.create_(variant, optionsText(options)));
  }

  /**
   * A custom position, `pos` as the page holds one: {turn, pieces: [{at, side, kind, rank}],
   * bombs: {x: 1, o: 0}}; a Game, or an exception saying why the core refuses it.
   */
  position(variant, options, pos) {
    const sides = this.sides(variant);
    const side = (name) => {
      const i = sides.indexOf(name);
      if (i < 0) throw new Error(`no side ${name} in ${variant}`);
      return i;
    };
    const bombs = sides.map((s) => pos.bombs?.[s] ?? 0).join(',');
    const pieces = pos.pieces.map(
      (p) =>
        `${p.at[0]},${p.at[1]},${side(p.side)},${KINDS.indexOf(p.kind ?? 'normal')},${RANKS.indexOf(p.rank ?? 'man')}`,
    );
    const text = [String(side(pos.turn)), bombs, ...pieces].join(';');
    return this.game_(this.fromPosition_(variant, optionsText(options), text));
  }

  /**
   * The position after `actions` (one turn, as the server lists turns) from `pos` (the page's
   * {variant, turn, pieces, bombs, ...}): {pos, captured, exploded, promoted}, or null if the core
   * refuses the position or an action.
   */
  applyTurn(pos, actions, options = {}) {
    let start;
    try {
      start = this.position(pos.variant, options, pos);
    } catch {
      return null;
    }
    const r = start.play(actions);
    if (!r) {
      start.free();
      return null;
    }
    const s = r.game.state();
    if (r.game !== start) r.game.free();
    start.free();
    const all = (k) => r.effects.flatMap((e) => e[k]);
    const next = { ...pos, turn: s.turn, pieces: s.board.pieces };
    if (pos.bombs) next.bombs = s.bombs;
    return { pos: next, captured: all('captured'), exploded: all('exploded'), promoted: all('promoted') };
  }

  /**
   * Whether one of `actions` (the other side's: a step, a first hop, a drop, a detonation) is legal
   * after at least one of the turns the side to move in `pos` may play: a premove's check. null
   * when the core cannot tell (a position it refuses).
   */
  legalAfterAReply(pos, options, actions) {
    let start;
    try {
      start = this.position(pos.variant, options, pos);
    } catch {
      return null;
    }
    let found = false;
    for (const g of start.replies()) {
      if (!found) found = g.state().legal.some((l) => actions.some((a) => sameAction(l, a)));
      g.free();
    }
    start.free();
    return found;
  }

  game_(handle) {
    if (handle < 0) throw new Error(this.error_());
    return new Game(this, handle);
  }
}

/** One position of a game, held by the engine until free(). */
export class Game {
  constructor(engine, handle) {
    this.engine = engine;
    this.handle = handle;
  }

  /** The state's text: {turn, board, legal, result, bombs, mid_turn, jumper} as the server writes them. */
  text() {
    return this.engine.state_(this.handle);
  }

  state() {
    return JSON.parse(this.text());
  }

  /** Plays legal action number `index`; {game, effects: {captured, exploded, promoted, turn_over}}. */
  apply(index) {
    const next = this.engine.apply_(this.handle, index);
    if (next < 0) throw new Error(this.engine.error_());
    return { game: new Game(this.engine, next), effects: JSON.parse(this.engine.effects_()) };
  }

  /**
   * Plays `actions` (protocol objects, one turn's or a few) in order; {game, effects: [...]} or null
   * when one of them is not legal where it comes.
   */
  play(actions) {
    let game = this;
    const effects = [];
    for (const a of actions) {
      const legal = game.state().legal;
      const i = legal.findIndex((l) => sameAction(l, a));
      if (i < 0) {
        if (game !== this) game.free();
        return null;
      }
      const r = game.apply(i);
      if (game !== this) game.free();
      game = r.game;
      effects.push(r.effects);
    }
    return { game, effects };
  }

  /** The games after each complete turn of the side to move (from mid-turn: the rest of it); free them. */
  replies() {
    const n = this.engine.turns_(this.handle);
    if (n < 0) throw new Error(this.engine.error_());
    const out = [];
    for (let i = 0; i < n; i++) out.push(new Game(this.engine, this.engine.afterTurn_(this.handle, i)));
    return out;
  }

  /** Complete-turn leaf nodes at `depth`. */
  perft(depth) {
    return this.engine.perft_(this.handle, depth);
  }

  free() {
    this.engine.free_(this.handle);
    this.handle = -1;
  }
}

const sq = (a, b) => !!a && !!b && a[0] === b[0] && a[1] === b[1];

/** Whether two protocol actions are the same action. */
export function sameAction(a, b) {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'step':
    case 'jump':
      return sq(a.from, b.from) && sq(a.to, b.to);
    case 'drop':
      return a.column === b.column && (a.piece ?? 'normal') === (b.piece ?? 'normal');
    case 'detonate':
      return sq(a.at, b.at);
    default:
      return true;
  }
}
