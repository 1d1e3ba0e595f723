#!/usr/bin/env node
// The Colyseus side of the peer benchmark (README.md): one room type, "board", a minimal two-player
// board game (board_game.mjs) whose state is a Colyseus Schema. Listens on 127.0.0.1 only.
//
// usage: node colyseus_server.mjs [--port N] [--patch-rate MS] [--ping-ms MS]
//   --port N         0 (default) = any free port; prints "listening on http://127.0.0.1:PORT"
//   --patch-rate MS  0 (default): every accepted move is sent at once (room.broadcastPatch()), as
//                    bombcheckers sends a state per action; MS > 0: Colyseus' own patch timer
//                    (its default is 50 ms), which batches the changes of that interval
//   --ping-ms MS     WebSocket keep-alive pings (default 30000, as bombcheckers; Colyseus' own
//                    default is 3000)
import { Server, Room } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { Schema, ArraySchema, defineTypes } from '@colyseus/schema';
import { initialBoard, isLegal, legalMoves, applyMove } from './board_game.mjs';

const args = process.argv.slice(2);
function opt(name, def) {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
}
const port = Number(opt('--port', '0'));
const patchRate = Number(opt('--patch-rate', '0'));
const pingMs = Number(opt('--ping-ms', '30000'));

class BoardState extends Schema {
  constructor() {
    super();
    this.board = new ArraySchema(...initialBoard());
    this.turn = 0;      // side to move: 0 or 1
    this.moves = 0;     // accepted moves in this room, all games (the version a client acts on)
    this.game = 1;      // games so far (a side without a legal move ends one; the board is reset)
    this.playing = false;
    this.p0 = '';       // sessionId of side 0's player ('' = empty seat)
    this.p1 = '';
    this.lastFrom = -1; // the last move, as bombcheckers' `last`
    this.lastTo = -1;
  }
}
defineTypes(BoardState, {
  board: ['uint8'],
  turn: 'uint8',
  moves: 'uint32',
  game: 'uint32',
  playing: 'boolean',
  p0: 'string',
  p1: 'string',
  lastFrom: 'int8',
  lastTo: 'int8',
});

class BoardRoom extends Room {
  maxClients = 2;
  patchRate = patchRate > 0 ? patchRate : null;

  onCreate() {
    this.state = new BoardState();
    this.cells = initialBoard(); // a plain copy of state.board for the rules (cheaper than the schema's proxy)
    this.onMessage('move', (client, msg) => this.move(client, msg));
    this.onMessage('*', (client, type) => client.send('error', { code: 'unknown_type', type }));
  }

  onJoin(client) {
    const s = this.state;
    if (!s.p0) s.p0 = client.sessionId;
    else if (!s.p1) s.p1 = client.sessionId;
    if (s.p0 && s.p1) s.playing = true;
    if (!this.patchRate) this.broadcastPatch();
  }

  onLeave(client) {
    const s = this.state;
    if (s.p0 === client.sessionId) s.p0 = '';
    if (s.p1 === client.sessionId) s.p1 = '';
    s.playing = false;
    if (!this.patchRate) this.broadcastPatch();
  }

  move(client, msg) {
    const s = this.state;
    const side = s.p0 === client.sessionId ? 0 : s.p1 === client.sessionId ? 1 : -1;
    if (side < 0) return client.send('error', { code: 'not_a_player' });
    if (!s.playing) return client.send('error', { code: 'not_started' });
    if (side !== s.turn) return client.send('error', { code: 'not_your_turn' });
    const from = msg?.from, to = msg?.to;
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || from > 63 || to < 0 || to > 63) {
      return client.send('error', { code: 'bad_message' });
    }
    if (!isLegal(this.cells, side, from, to)) return client.send('error', { code: 'illegal_action' });
    for (const [i, v] of applyMove(this.cells, side, from, to)) s.board[i] = v;
    s.lastFrom = from;
    s.lastTo = to;
    s.moves++;
    const next = 1 - side;
    if (legalMoves(this.cells, next).length === 0) {
      // `next` has lost; a new game on a fresh board, the other side starting this time.
      const fresh = initialBoard();
      for (let i = 0; i < 64; i++) if (this.cells[i] !== fresh[i]) s.board[i] = fresh[i];
      this.cells = fresh;
      s.game++;
      s.turn = s.game % 2 === 1 ? 0 : 1;
    } else {
      s.turn = next;
    }
    if (!this.patchRate) this.broadcastPatch();
  }
}

const gameServer = new Server({
  transport: new WebSocketTransport({ pingInterval: pingMs, pingMaxRetries: 2 }),
  greet: false,
  gracefullyShutdown: false, // the handlers below stop it
});
gameServer.define('board', BoardRoom);
await gameServer.listen(port, '127.0.0.1');
const actual = gameServer.transport.server.address().port;
console.log(`listening on http://127.0.0.1:${actual}`);

for (const sig of ['SIGTERM', 'SIGINT']) {
  process.once(sig, () => {
    gameServer.gracefullyShutdown(false).catch(() => {}).finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  });
}
