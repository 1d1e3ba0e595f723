// Compact states (docs/PROTOCOL.md): the page asks for them, gets one full state and then deltas,
// and what it rebuilds from the deltas is the state the server sends in full, field for field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { person, waitBoard, move, createGame, shareLink, joinByLink } from './helpers.mjs';
import { browser } from './shared_browser.mjs';

// Every frame the page receives, by type, with its size.
function recordFrames(page) {
  const frames = [];
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      const text = String(payload);
      try {
        const msg = JSON.parse(text);
        const legal = msg.set?.legal;
        const short = Array.isArray(legal) && legal.length > 0 && legal.every((a) => typeof a === 'string');
        frames.push({ type: msg.type, bytes: Buffer.byteLength(text), short });
      } catch {
        frames.push({ type: 'unparsed', bytes: text.length });
      }
    });
  });
  return frames;
}

// The page's state as it holds it, then the full state the server sends on `sync`.
async function heldThenSynced(page) {
  return page.evaluate(async () => {
    const { app, net } = window.bombcheckers;
    const held = JSON.stringify(app.state);
    const before = app.state;
    net.send({ type: 'sync' });
    for (let i = 0; i < 100 && app.state === before; i++) await new Promise((r) => setTimeout(r, 50));
    return { held, synced: JSON.stringify(app.state), replaced: app.state !== before };
  });
}

test('moves and a capture arrive as deltas that rebuild the full state exactly', async () => {
  const fire = await person(browser);
  const water = await person(browser);
  const fireFrames = recordFrames(fire);
  const waterFrames = recordFrames(water);
  const room = await createGame(fire, { variant: 'classic', name: 'Ann', seat: 'black' });
  await joinByLink(water, await shareLink(fire), 'Bob');
  await waitBoard(fire, { room, status: 'playing', turn: 'black' });

  // Two steps, then a capture each (classic: capturing is compulsory).
  await move(fire, [2, 2], [3, 3]);
  await waitBoard(water, { version: 1, turn: 'white' });
  await move(water, [5, 5], [4, 4]);
  await waitBoard(fire, { version: 2, turn: 'black' });
  await move(fire, [3, 3], [5, 5]); // takes [4,4]
  await waitBoard(water, { version: 3, turn: 'white' });
  await move(water, [6, 6], [4, 4]); // takes [5,5]
  await waitBoard(fire, { version: 4, turn: 'black' });

  for (const [page, frames] of [
    [fire, fireFrames],
    [water, waterFrames],
  ]) {
    const deltas = frames.filter((f) => f.type === 'delta');
    assert.ok(deltas.length >= 4, `deltas received: ${JSON.stringify(frames)}`);
    const fulls = frames.filter((f) => f.type === 'state');
    assert.ok(fulls.length >= 1 && fulls.length <= 2, `full states: ${fulls.length}`);
    const largestFull = Math.max(...fulls.map((f) => f.bytes));
    for (const d of deltas) assert.ok(d.bytes < largestFull / 2, `a delta of ${d.bytes} bytes`);
    // The page asks for short actions (compact=2): the deltas' `legal` lists are strings.
    assert.ok(
      deltas.some((d) => d.short),
      'deltas with short actions',
    );

    const { held, synced, replaced } = await heldThenSynced(page);
    assert.ok(replaced, 'sync answered with a full state');
    assert.equal(held, synced);
  }
  const pieces = await fire.evaluate(() => window.bombcheckers.app.state.board.pieces.length);
  assert.equal(pieces, 22, 'a man of each side was taken');
});
