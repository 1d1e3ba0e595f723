// The players' slice (docs/PLAYERS.md): whether the server has players at all, who this browser
// plays as (GET /api/me: a guest, an account, or nobody yet), the quick-pairing pools the server
// offers (welcome's `players`) and the one this page waits in.

export function newPlayers() {
  return {
    accounts: null, // the server has players (GET /api/me's `accounts`); null until it answers
    me: null, // this browser's player: {id, name (null for a guest), guest, ratings}, or null
    pools: [], // welcome's players.pools: [{id, variant, clock: {base, increment}, perf}]
    // The pool this page waits in: {id, waiting (how many wait there, null until the server says),
    // leaving (Cancel sent, its answer not yet here)}; null when in none.
    pool: null,
  };
}

function outOfPool(p) {
  p.pool = null;
}

export const playersReducers = {
  /** GET /api/me's answer, or a sign-up's, sign-in's or sign-out's. */
  'got/me'(p, { accounts, player }) {
    p.accounts = accounts;
    p.me = player ?? null;
    if (!p.me) p.pool = null; // nobody waits in a pool
  },
  'got/welcome'(p, { msg }) {
    p.pools = Array.isArray(msg.players?.pools) ? msg.players.pools : [];
  },
  /** The user pressed a pool: the page waits there (the request goes when the socket plays as a player). */
  'want/pool'(p, { pool }) {
    p.pool = { id: pool, waiting: null, leaving: false };
  },
  /** Out of the pool on this page's own account (no player could be made for it). */
  'want/no_pool': outOfPool,
  'want/pool_cancel'(p) {
    if (p.pool) p.pool = { ...p.pool, leaving: true };
  },
  /** The server's word on our pool: `pool` null when we are out of every pool. */
  'got/pool'(p, { pool, waiting }) {
    if (!pool) p.pool = null;
    else if (!p.pool || p.pool.id === pool) p.pool = { id: pool, waiting: waiting ?? null, leaving: !!p.pool?.leaving };
  },
  'got/paired': outOfPool,
  'got/error'(p, { req }) {
    if (req?.kind === 'pool') p.pool = null;
  },
  /** The socket closed: the server took us out of the pool, and we go back in when it opens again
   *  (unless Cancel was pressed). */
  'net/down'(p) {
    if (p.pool?.leaving) p.pool = null;
  },
  // A `create` or `join` takes the sender out of its pool.
  'want/enter': outOfPool,
  'want/create': outOfPool,
};
