// Two people at one screen ("both sides on this screen", PROTOCOL.md "One screen"): the start
// screen's choice; the link only lets others watch; the board turning with the turn; the takeback,
// the draw offer, the rematch and resigning at one screen; from the analysis board. Whole games of
// every variant: one_screen_games_*.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, person, board, waitBoard, clickSquare, shot } from './helpers.mjs';
import { stateOf, createOneScreen, chooseTurn, play } from './one_screen_driver.mjs';
import { browser } from './shared_browser.mjs';

test(
  'one screen: the start screen, the link only watches, the board turns with the turn if asked',
  { timeout: 90000 },
  async () => {
    const page = await person(browser);
    await page.goto(`${BASE}/`);
    await page.evaluate(() => localStorage.setItem('bc.name', 'Ann'));
    await page.reload();
    await page.locator('#create-btn:not([disabled])').waitFor();
    // The computer switch, on from an earlier visit, is off and disabled while both sides are here.
    await page.locator('label.switch:has(#vs-ai)').click();
    assert.equal(await page.locator('#vs-ai').isChecked(), true);
    await page.locator('label.side-pick:has(input[value="both"])').click();
    await page.locator('#both-names').waitFor();
    assert.equal(await page.locator('#vs-ai').isChecked(), false);
    assert.equal(await page.locator('#vs-ai').isDisabled(), true);
    await page.locator('#opponent-note', { hasText: 'the computer has no seat' }).waitFor();
    assert.equal(await page.locator('#create-name-row').isHidden(), true, 'a name for each side instead of one');
    assert.equal(await page.inputValue('#both-name-0'), 'Ann', 'the first side is the stored name');
    assert.equal(await page.locator('#both-name-0').getAttribute('placeholder'), 'Player 1');
    assert.equal(await page.locator('#both-name-1').getAttribute('placeholder'), 'Player 2');
    assert.match(await page.locator('#create-btn').textContent(), /Start the game here/);
    await shot(page, 'one-screen-start');
    // A side again: the computer switch is back as it was.
    await page.locator('label.side-pick:has(input[value="water"])').click();
    assert.equal(await page.locator('#vs-ai').isChecked(), true);
    assert.equal(await page.locator('#vs-ai').isDisabled(), false);
    await page.locator('label.switch:has(#vs-ai)').click();

    const room = await createOneScreen(page, { variant: 'bomb', names: ['Ann', 'Bob'] });
    assert.equal(await page.evaluate(() => localStorage.getItem('bc.name2')), 'Bob', 'the second name is remembered');

    // Someone else opens the link: they can only watch.
    const eve = await person(browser);
    await eve.goto(`${BASE}/r/${room}`);
    await eve.locator('#join-dialog[open]').waitFor();
    await eve.locator('#join-info', { hasText: 'at one screen' }).waitFor();
    assert.equal(await eve.locator('#join-play').isHidden(), true, 'no Play: both seats are at that screen');
    await eve.click('#join-watch');
    await waitBoard(eve, { room, seat: 'spectator', version: 0 });
    await eve.locator('#one-screen-badge', { hasText: 'Played on one screen' }).waitFor();
    // And the server gives nobody else a seat (a join for one, straight on the socket).
    const refused = await eve.evaluate(
      (r) =>
        new Promise((done) => {
          const ws = new WebSocket(`ws://${location.host}/ws`);
          ws.onopen = () => ws.send(JSON.stringify({ type: 'join', room: r, seat: 'fire', name: 'Eve', id: 'j1' }));
          ws.onmessage = (ev) => {
            const m = JSON.parse(ev.data);
            if (m.id === 'j1') {
              ws.close();
              done(m.type === 'error' ? m.code : m.type);
            }
          };
        }),
      room,
    );
    assert.equal(refused, 'seat_taken');
    // The live games list says so, and offers only to watch.
    await eve.goto(`${BASE}/`);
    const item = eve.locator(`li.room[data-room="${room}"]`);
    await item.locator('.pill.one-screen').waitFor();
    assert.equal(await item.getByRole('button', { name: `Play in game ${room}` }).count(), 0);
    await item.getByRole('button', { name: `Watch game ${room}` }).click();
    await waitBoard(eve, { room, seat: 'spectator' });

    // The setting: off, the first side stays at the bottom; on, the side to move is.
    const box = page.locator('#turn-board-box');
    await box.waitFor();
    assert.equal(await page.locator('#turn-board').isChecked(), false);
    const turns = async (n, follow) => {
      for (let i = 0; i < n; i++) {
        const s = await stateOf(page);
        await play(page, chooseTurn(s));
        const now = await stateOf(page);
        const d = await board(page);
        assert.equal(d.flipped, String(follow && now.turn === 'water'), `turn ${now.version}: ${now.turn} to move`);
        await waitBoard(eve, { version: now.version }); // the watcher sees every turn
      }
    };
    await turns(2, false);
    await box.click();
    assert.equal(await page.locator('#turn-board').isChecked(), true);
    await waitBoard(page, { flipped: 'false', turn: 'fire' });
    await turns(3, true);
    await page.waitForTimeout(150);
    await shot(page, 'one-screen-turning');
    // Remembered by the browser: after a reload the board still turns.
    await page.reload();
    await waitBoard(page, { status: 'playing', seat: 'fire' });
    assert.equal(await page.locator('#turn-board').isChecked(), true);
    const s = await stateOf(page);
    assert.equal((await board(page)).flipped, String(s.turn === 'water'));
    await turns(2, true);
    await box.click();
    assert.equal(await page.locator('#turn-board').isChecked(), false);
    await waitBoard(page, { flipped: 'false' });
    await turns(2, false);
    // The watcher's own view never turns; their clicks play nothing.
    assert.equal((await board(eve)).flipped, 'false');
    const v = (await board(page)).version;
    await clickSquare(eve, [1, 1]);
    await eve.locator('#hint', { hasText: 'You are watching' }).waitFor();
    assert.equal((await board(page)).version, v);
    for (const p of [page, eve]) assert.deepEqual(p.errors, []);
    await Promise.all([page, eve].map((p) => p.context().close()));
  },
);

test(
  'one screen: take back at once, a draw offered and answered here, a rematch, the side to move resigns',
  { timeout: 90000 },
  async () => {
    const page = await person(browser);
    await createOneScreen(page, { variant: 'bomb', names: ['Ann', 'Bob'] });
    const pieces = async () =>
      (await stateOf(page)).board.pieces.map((p) => `${p.at} ${p.side} ${p.kind} ${p.rank}`).sort();
    const start = await pieces();
    await page.locator('#takeback[disabled]').waitFor(); // nothing played yet
    // The buttons say which side they act for.
    await page.locator('#resign', { hasText: 'Fire resigns' }).waitFor();
    await page.locator('#offer-draw', { hasText: 'Fire offers a draw' }).waitFor();

    await play(page, chooseTurn(await stateOf(page)));
    const afterFire = await pieces();
    await page.locator('#resign', { hasText: 'Water resigns' }).waitFor();
    await page.locator('#status-line', { hasText: 'Water to move — Bob' }).waitFor();
    await play(page, chooseTurn(await stateOf(page)));
    assert.equal(await page.locator('#move-list button.move').count(), 2);
    // Take back: at once, no one to ask. Water's turn is undone, then fire's.
    await page.click('#takeback:not([disabled])');
    await waitBoard(page, { version: 3, turn: 'water' });
    assert.deepEqual(await pieces(), afterFire);
    await page.locator('#move-list button.move').nth(1).waitFor({ state: 'detached' });
    assert.equal(await page.locator('#takeback-offer').isHidden(), true, 'no prompt: it was granted');
    await page.click('#takeback:not([disabled])');
    await waitBoard(page, { version: 4, turn: 'fire' });
    assert.deepEqual(await pieces(), start);
    await page.locator('#takeback[disabled]').waitFor();

    // Fire offers a draw; the same screen answers for water: declined.
    await page.click('#offer-draw');
    await page
      .locator('#draw-offer-text', { hasText: 'Fire (Ann) offers a draw. Water (Bob): do you accept?' })
      .waitFor();
    assert.equal(await page.locator('#offer-draw').isHidden(), true);
    assert.equal(await page.locator('#draw-accept').getAttribute('aria-label'), 'Accept the draw for Water (Bob)');
    assert.equal(
      await page.getByRole('button', { name: 'Fire offers a draw (Ann)' }).count(),
      0,
      'hidden while it stands',
    );
    assert.equal(await page.getByRole('button', { name: 'Fire resigns the game (Ann)' }).count(), 1);
    await shot(page, 'one-screen-draw-offer');
    await page.click('#draw-decline');
    await page.locator('#draw-offer').waitFor({ state: 'hidden' });
    assert.equal((await stateOf(page)).status, 'playing');
    // Fire plays on; now water offers, and fire accepts.
    await play(page, chooseTurn(await stateOf(page)));
    await page.click('#offer-draw');
    await page
      .locator('#draw-offer-text', { hasText: 'Water (Bob) offers a draw. Fire (Ann): do you accept?' })
      .waitFor();
    await page.click('#draw-accept');
    await waitBoard(page, { status: 'finished' });
    assert.equal((await stateOf(page)).result.reason, 'draw_agreed');
    await page.locator('.overlay-card h2', { hasText: 'Draw' }).waitFor();
    // No claim against anyone: both players are here.
    assert.equal(await page.locator('#away-buttons').isHidden(), true);

    // A rematch starts at once, the players swapping sides.
    await page.locator('.overlay-card button', { hasText: 'Rematch' }).click();
    await waitBoard(page, { game: 2, version: 0, status: 'playing', turn: 'fire' });
    const s2 = await stateOf(page);
    assert.equal(s2.players.fire.name, 'Bob');
    assert.equal(s2.players.water.name, 'Ann');
    await page.locator('#status-line', { hasText: 'Fire to move — Bob' }).waitFor();
    // The side to move resigns: fire, Bob.
    await play(page, chooseTurn(s2));
    await play(page, chooseTurn(await stateOf(page)));
    await page.click('#resign');
    await page.locator('#confirm-text', { hasText: 'Fire (Bob) resigns? Water (Ann) wins.' }).waitFor();
    await page.click('#confirm-yes');
    await waitBoard(page, { status: 'finished' });
    const end = await stateOf(page);
    assert.deepEqual([end.result.reason, end.result.winner], ['resigned', 'water']);
    await page.locator('.overlay-card h2', { hasText: 'Ann wins!' }).waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  },
);

test('one screen from the analysis board: Play from here, both sides at this screen', { timeout: 60000 }, async () => {
  const page = await person(browser);
  await page.goto(`${BASE}/analysis?variant=bomb&fen=fire:Kc3,Se3:b6,Bf6`);
  await page.locator('#ed-play').waitFor();
  await page.selectOption('#ed-opponent', 'screen');
  await page.click('#ed-play');
  await waitBoard(page, { status: 'playing', variant: 'bomb', turn: 'fire', version: 0 });
  const s = await stateOf(page);
  assert.equal(s.one_screen, true);
  assert.equal(s.board.pieces.length, 4, 'the position of the analysis board');
  // Both sides play here, one after the other.
  await play(page, chooseTurn(s));
  await waitBoard(page, { turn: 'water' });
  await play(page, chooseTurn(await stateOf(page)));
  await waitBoard(page, { version: 2 });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
