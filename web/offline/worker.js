// The server in a Web Worker, for play with no server (docs/ENGINE.md, "Offline"): wasm/offline.cpp
// compiled to offline.wasm runs the server's own Room and computer. The page's LocalSocket
// (web/local_socket.js) posts it the texts it would send over the WebSocket, and gets back what the
// server would answer, one text a message. The computer thinks here, off the page's thread.

import createOffline from './offline.mjs';

// As on the server (server/host/room_host_computer.cpp): a computer's turn is shown no sooner than
// this after the position it answers, so that each move can be seen landing.
const COMPUTER_MIN_THINK_MS = 400;

let core = null;
let computerTimer = 0;
let deadlineTimer = 0;

function flush() {
  const texts = core.take();
  for (const text of texts.split('\n')) {
    if (text) postMessage({ text });
  }
  schedule();
}

/** Arms the computer's next turn and the room's next deadline (a flag, an abort). */
function schedule() {
  clearTimeout(deadlineTimer);
  const due = core.deadlineIn();
  if (due >= 0) {
    deadlineTimer = setTimeout(() => {
      core.deadline();
      flush();
    }, due + 1);
  }
  if (computerTimer || !core.computerLevel()) return;
  const asked = performance.now();
  computerTimer = setTimeout(() => {
    core.computerMove();
    const left = COMPUTER_MIN_THINK_MS - (performance.now() - asked);
    const show = () => {
      computerTimer = 0;
      flush();
    };
    if (left > 0) computerTimer = setTimeout(show, left);
    else show();
  }, 0);
}

async function start() {
  const module = await createOffline({ locateFile: (file) => new URL(file, import.meta.url).href });
  const fn = (name, ret, args) => module.cwrap(name, ret, args);
  core = {
    welcome: fn('bc_offline_welcome', 'string', []),
    send: fn('bc_offline_send', null, ['string']),
    take: fn('bc_offline_take', 'string', []),
    computerLevel: fn('bc_offline_computer_level', 'number', []),
    computerMove: fn('bc_offline_computer_move', null, []),
    deadlineIn: fn('bc_offline_deadline_in', 'number', []),
    deadline: fn('bc_offline_deadline', null, []),
    record: fn('bc_offline_record', 'string', ['string', 'number', 'number']),
  };
  postMessage({ open: true });
  postMessage({ text: core.welcome() });
}

const ready = start().catch((e) => {
  postMessage({ failed: String(e?.message ?? e) });
});

onmessage = async (ev) => {
  await ready;
  const d = ev.data ?? {};
  if (!core) return;
  if (d.record) {
    // A game record, as GET /api/games/{room} would give it (null: no such game here).
    const { room, format, game } = d.record;
    postMessage({ recordId: d.recordId, text: core.record(room, format, game) ?? null });
    return;
  }
  if (typeof d.text !== 'string') return;
  core.send(d.text);
  flush();
};
