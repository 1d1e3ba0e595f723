// The client's state store (web/store/): the read-only view the page reads, dispatch and its
// subscribers, and what each slice's reducers make of the server's messages and the user's
// intents, in node with no page (the reducers touch no DOM).
//   node --test tests/browser/store.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { importWeb } from './web_modules.mjs';

const { analysis, app, batch, dispatch, subscribe } = await importWeb('store/store.js');
const { stateAction } = await importWeb('store/game.js');

const heard = [];
subscribe((actions) => heard.push(actions.map((a) => a.type)));

const piece = (at, side, kind = 'normal', rank = 'man') => ({ at, side, kind, rank });

/** A state of room R, game `game`, at `version`, with `last` the turn that led to it. */
function state(version, { game = 1, turn = 'fire', status = 'playing', last = null, legal = [], extra = {} } = {}) {
  return {
    type: 'state',
    room: 'R',
    game,
    version,
    status,
    turn,
    variant: 'bomb',
    board: { width: 8, height: 8, pieces: [piece([0, 0], 'fire'), piece([7, 7], 'water')] },
    legal,
    last,
    ...extra,
  };
}
const turn = (side, ...actions) => ({ side, actions, exploded: [], promoted: [] });
const step = (from, to) => ({ kind: 'step', from, to });
const jump = (from, to) => ({ kind: 'jump', from, to });

/** Takes `s` in as the page does (game_state.js): false when it is old news. */
function take(s) {
  const action = stateAction(app.state, s);
  if (!action) return false;
  dispatch(action);
  return true;
}

/** Leaves any room, then joins room R as `seat`. */
function enter(seat = 'fire') {
  dispatch({ type: 'want/leave' });
  dispatch({ type: 'want/enter', room: 'R', seat, name: 'Ann', token: null, fresh: true });
  dispatch({ type: 'sent/request', id: 7, meta: { kind: 'join', room: 'R', seat, name: 'Ann' } });
  dispatch({
    type: 'got/joined',
    id: 7,
    room: 'R',
    fresh: false,
    create: null,
    seat,
    oneScreen: false,
    url: '/r/R',
    token: seat === 'spectator' ? null : 'secret',
    name: 'Ann',
  });
}

test('store: the page reads the state through app and cannot write it', () => {
  assert.equal(app.room, null);
  assert.throws(() => {
    app.seat = 'fire';
  }, TypeError);
  assert.throws(() => {
    delete app.state;
  }, TypeError);
  assert.throws(() => Object.defineProperty(app, 'room', { value: 'X' }), TypeError);
  assert.equal(app.seat, null, 'nothing written');
  assert.ok('selected' in app && 'moves' in app && 'welcome' in app, 'the three slices read as one');
  assert.ok(Object.keys(app).includes('premove'));
});

test('store: an action that no reducer takes is refused and changes nothing', () => {
  const before = heard.length;
  assert.throws(() => dispatch({ type: 'want/nothing_known' }), /No reducer takes the action 'want\/nothing_known'/);
  assert.equal(heard.length, before, 'no subscriber heard of it');
});

test('store: subscribers hear each dispatch, and a batch once at its end, in order', () => {
  heard.length = 0;
  dispatch({ type: 'want/flip' });
  batch(() => {
    dispatch({ type: 'want/flip' });
    dispatch({ type: 'want/hover', square: [1, 2] });
    assert.equal(heard.length, 1, 'nothing heard inside the batch');
  });
  assert.deepEqual(heard, [['want/flip'], ['want/flip', 'want/hover']]);
  assert.equal(app.userFlip, false, 'flipped twice');
  assert.deepEqual(app.hover, [1, 2]);
});

test('store: a dispatch made while subscribers hear is heard after them, not inside', () => {
  heard.length = 0;
  let inner = 0;
  const once = (actions) => {
    if (actions[0].type === 'want/close_overlay' && inner++ === 0) dispatch({ type: 'view/result_shown' });
  };
  subscribe(once);
  dispatch({ type: 'want/close_overlay' });
  assert.deepEqual(heard, [['want/close_overlay'], ['view/result_shown']]);
});

test('store: welcome gives the variants and the computer levels; a welcome without variants keeps them', () => {
  dispatch({
    type: 'got/welcome',
    msg: { type: 'welcome', variants: [{ id: 'bomb', sides: ['fire', 'water'] }], ai: { levels: [1, 4, 8] } },
  });
  assert.deepEqual(
    app.variants.map((v) => v.id),
    ['bomb'],
  );
  assert.deepEqual(app.ai.levels, [1, 4, 8]);
  dispatch({ type: 'got/welcome', msg: { type: 'welcome', offline: true } });
  assert.deepEqual(
    app.variants.map((v) => v.id),
    ['bomb'],
  );
  assert.equal(app.offline, true);
  dispatch({ type: 'got/welcome', msg: { type: 'welcome', variants: [{ id: 'bomb', sides: ['fire', 'water'] }] } });
  assert.equal(app.offline, false);
});

test('store: joined gives the seat, its token and the join to send again; an offline page keeps no token', () => {
  enter('fire');
  assert.equal(app.room, 'R');
  assert.equal(app.seat, 'fire');
  assert.equal(app.token, 'secret');
  assert.deepEqual(app.joinReq, { room: 'R', seat: 'fire', name: 'Ann', token: 'secret' });
  assert.equal(app.requests.has(7), false, 'the join was answered');
  enter('spectator');
  assert.equal(app.token, null);
  assert.deepEqual(app.joinReq, { room: 'R', seat: 'spectator', name: 'Ann', token: null });
  // Played with no server, the room lives in this page alone: its seat is not one to keep.
  dispatch({ type: 'got/welcome', msg: { type: 'welcome', offline: true } });
  enter('fire');
  assert.equal(app.seat, 'fire');
  assert.equal(app.token, null);
  dispatch({ type: 'got/welcome', msg: { type: 'welcome', variants: [{ id: 'bomb', sides: ['fire', 'water'] }] } });
});

test('store: the move list grows by turns, a capture sequence stays one turn, and a gap asks for the record', () => {
  enter('fire');
  assert.equal(take(state(0)), true);
  take(state(1, { turn: 'water', last: turn('fire', step([0, 0], [1, 1])) }));
  take(state(2, { turn: 'water', last: turn('water', jump([7, 7], [5, 5])) }));
  take(state(3, { turn: 'fire', last: turn('water', jump([5, 5], [3, 3])) }));
  assert.deepEqual(
    app.moves.map((m) => [m.side, m.actions.length, m.versions]),
    [
      ['fire', 1, [1]],
      ['water', 2, [2, 3]],
    ],
  );
  assert.equal(app.movesPartial, false);
  assert.equal(take(state(2, { turn: 'water' })), false, 'a late state is old news');
  assert.equal(app.state.version, 3);
  assert.equal(app.games.get(1).size, 4, 'every position seen is kept for the replay');
  // States missed (a reconnect): the turns between are not known here, so the list comes from the
  // game record (game_state.js's loadHistory) and the state adds no turn of its own.
  const gap = stateAction(app.state, state(6, { turn: 'water', last: turn('fire', step([1, 1], [2, 2])) }));
  assert.equal(gap.needHistory, true);
  dispatch(gap);
  assert.equal(app.moves.length, 2);
  dispatch({ type: 'got/history', moves: [turn('fire', step([0, 0], [1, 1]))].map((m) => ({ ...m, versions: [1] })) });
  assert.equal(app.movesPartial, false);
  assert.deepEqual(
    app.moves.map((m) => m.versions),
    [[1]],
  );
});

test('store: a takeback undoes the turns, forgets their positions, and drops the premove and the selection', () => {
  enter('fire');
  take(state(0));
  take(state(1, { turn: 'water', last: turn('fire', step([0, 0], [1, 1])) }));
  take(state(2, { turn: 'fire', last: turn('water', step([7, 7], [6, 6])) }));
  dispatch({ type: 'want/premove', premove: { from: [1, 1], to: null } });
  dispatch({ type: 'want/select', square: [1, 1] });
  // Fire takes its move back: the position after version 0 again, as version 3.
  take(state(3, { turn: 'fire', last: null, extra: { moves: 0 } }));
  assert.deepEqual(app.moves, []);
  assert.deepEqual([...app.games.get(1).keys()], [3]);
  assert.equal(app.premove, null);
  assert.equal(app.selected, null);
});

test('store: a rematch keeps the last game’s move list and begins a new one', () => {
  enter('fire');
  take(state(0));
  take(state(1, { turn: 'water', last: turn('fire', step([0, 0], [1, 1])) }));
  take(state(2, { status: 'finished', last: null, extra: { result: { winner: 'fire' } } }));
  assert.equal(app.finishedLive, true, 'finished in front of us');
  dispatch({ type: 'sent/rematch' });
  assert.equal(app.rematchAsked, true);
  take(state(0, { game: 2 }));
  assert.equal(app.gameNo, 2);
  assert.equal(app.rematchAsked, false);
  assert.deepEqual(app.moves, []);
  assert.equal(app.pastMoves.get(1).length, 1);
});

test('store: a refused act, join or rematch puts back what was waiting for it', () => {
  enter('fire');
  take(state(0, { legal: [step([0, 0], [1, 1])] }));
  dispatch({ type: 'want/select', square: [0, 0] });
  dispatch({ type: 'sent/request', id: 8, meta: { kind: 'act' } });
  dispatch({ type: 'sent/act' });
  assert.equal(app.pending, true);
  assert.equal(app.selected, null);
  dispatch({ type: 'got/error', id: 8, req: { kind: 'act' }, code: 'stale_version' });
  assert.equal(app.pending, false);
  assert.equal(app.requests.has(8), false);
  const req = { kind: 'join', room: 'R', seat: 'fire', name: 'Ann' };
  dispatch({ type: 'got/error', id: 9, req, code: 'bad_token' });
  assert.equal(app.token, null);
  assert.deepEqual(app.joinReq, { room: 'R', seat: 'any', name: 'Ann', token: null, lostSeat: true });
  dispatch({ type: 'got/error', id: 10, req, code: 'seat_taken' });
  assert.equal(app.joinReq.seat, 'spectator');
  dispatch({ type: 'sent/rematch' });
  dispatch({ type: 'got/error', id: 11, req: { kind: 'rematch' }, code: 'illegal_action' });
  assert.equal(app.rematchAsked, false);
});

test('store: another tab taking the seat pauses this one; leaving forgets the game but not the pointer', () => {
  enter('fire');
  take(state(0));
  dispatch({ type: 'want/premove', premove: { from: [0, 0], to: null } });
  dispatch({ type: 'got/replaced' });
  assert.equal(app.replaced, true);
  assert.equal(app.joinReq, null, 'not joined again after a reconnect');
  assert.equal(app.premove, null);
  dispatch({ type: 'want/hover', square: [3, 3] });
  dispatch({ type: 'got/invite', invite: { room: 'R', share: 'http://lan/r/R' } });
  dispatch({ type: 'want/leave' });
  assert.equal(app.room, null);
  assert.equal(app.state, null);
  assert.equal(app.replaced, false);
  assert.equal(app.gameNo, 1);
  assert.equal(app.games.size, 0);
  assert.deepEqual(app.hover, [3, 3]);
  assert.equal(app.invite.room, 'R', 'the invitation is kept for the room it names');
});

test('store: requests waiting for a reply are bounded, and a dropped connection forgets them', () => {
  for (let id = 100; id < 250; id++) dispatch({ type: 'sent/request', id, meta: { kind: 'chat' } });
  assert.equal(app.requests.size, 100);
  assert.equal(app.requests.has(249), true, 'the newest are kept');
  dispatch({ type: 'net/down' });
  assert.equal(app.requests.size, 0);
});

test('store: the analysis board changes its slice by dispatch alone, apart from the game', () => {
  dispatch({ type: 'analysis/variant', variant: 'kaboom', options: { width: 7, height: 6 } });
  assert.throws(() => {
    analysis.variant = 'bomb';
  }, TypeError);
  assert.equal(analysis.variant, 'kaboom');
  assert.equal('variant' in app, false, 'not one of the game slices');
  const before = analysis.options;
  dispatch({ type: 'analysis/option', name: 'connect', value: 3 });
  dispatch({ type: 'analysis/board_size', width: 5, height: 4 });
  assert.deepEqual(analysis.options, { width: 5, height: 4, connect: 3 });
  assert.deepEqual(before, { width: 7, height: 6 }, 'a new options object each time: an old one read stays as it was');
  const pos = { variant: 'kaboom', width: 5, height: 4, turn: 'x', pieces: [] };
  dispatch({ type: 'analysis/position', pos });
  dispatch({ type: 'analysis/explore' });
  dispatch({ type: 'analysis/shown', pos: { ...pos, turn: 'o' } });
  assert.equal(analysis.mode, 'explore');
  assert.equal(analysis.shown.turn, 'o');
  dispatch({ type: 'analysis/setup' });
  assert.equal(analysis.mode, 'setup');
  assert.equal(analysis.shown, null);
  assert.equal(analysis.pos, pos);
});

test('store: the players slice: who we are, the pools offered, and the one we wait in until paired or out', () => {
  const pools = [{ id: 'bomb-3+2', variant: 'bomb', clock: { base: 180, increment: 2 }, perf: 'bomb:blitz' }];
  dispatch({ type: 'got/welcome', msg: { type: 'welcome', players: { accounts: true, pools } } });
  assert.deepEqual(app.pools, pools);
  dispatch({ type: 'got/me', accounts: true, player: { id: 'a', name: null, guest: true, ratings: [] } });
  assert.equal(app.accounts, true);
  assert.equal(app.me.guest, true);
  assert.throws(() => {
    app.me = null;
  }, TypeError);

  dispatch({ type: 'want/pool', pool: 'bomb-3+2' });
  assert.deepEqual(app.pool, { id: 'bomb-3+2', waiting: null, leaving: false });
  dispatch({ type: 'got/pool', pool: 'bomb-3+2', waiting: 2 });
  assert.equal(app.pool.waiting, 2);
  dispatch({ type: 'net/down' });
  assert.equal(app.pool?.id, 'bomb-3+2', 'waiting still: the page goes back in when the socket opens');
  dispatch({ type: 'got/paired' });
  assert.equal(app.pool, null);

  // Cancel waits for the server's word (a pairing may come first), and a closed socket ends it.
  dispatch({ type: 'want/pool', pool: 'bomb-3+2' });
  dispatch({ type: 'want/pool_cancel' });
  assert.equal(app.pool.leaving, true);
  dispatch({ type: 'net/down' });
  assert.equal(app.pool, null);
  // A refused pool, a room entered and signing out are out of the pool too.
  dispatch({ type: 'want/pool', pool: 'bomb-3+2' });
  dispatch({ type: 'got/error', id: 'x', req: { kind: 'pool' }, code: 'sign_in_required' });
  assert.equal(app.pool, null);
  dispatch({ type: 'want/pool', pool: 'bomb-3+2' });
  dispatch({ type: 'want/enter', room: 'Q', seat: 'any', name: 'A', token: null, fresh: true });
  assert.equal(app.pool, null);
  dispatch({ type: 'want/leave' });
  dispatch({ type: 'want/pool', pool: 'bomb-3+2' });
  dispatch({ type: 'got/me', accounts: true, player: null });
  assert.equal(app.pool, null);
  assert.equal(app.me, null);
  dispatch({ type: 'got/welcome', msg: { type: 'welcome' } });
  assert.deepEqual(app.pools, [], 'a server without players offers none');
});
