// Takebacks, in one browser engine (a file per engine runs it: both_takeback.*.test.mjs): a player
// asks to take back their last move and the opponent accepts (the board goes back, a premove is
// dropped, the move list and the replay forget the undone turns) or declines (a notice, the board
// stays); against the computer the takeback is at once.
// One browser per engine, shared by the tests; each person is a context of their own.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { engineSuite } from '../driver.mjs';
import { BASE, board, done, waitBoard, clickSquare, move, openingMoves, startGame, pieces } from '../game_driver.mjs';

/** The texts of the move list's items. */
function moveList(p) {
  return p.eval(() => [...document.querySelectorAll('#move-list li')].map((li) => li.textContent.trim()));
}

export default function scenarios(kind) {
  engineSuite(kind, (engine) => {
    it('a takeback accepted: both boards go back to the start with fire to move, a premove is dropped, the replay skips the undone moves', async () => {
      const { creator: fire, joiner: water } = await startGame(engine.browser);
      const start = await pieces(fire);
      // Nothing to take back before a move of one's own.
      await fire.visible('#takeback[disabled]');
      await openingMoves(fire, water);

      // Water premoves g7-f6 during fire's turn; fire asks to take back c3-d4 (and water's answer).
      await clickSquare(water, [6, 6]);
      await clickSquare(water, [5, 5]);
      await waitBoard(water, { premove: '6,6-5,5' });
      await fire.click('#takeback:not([disabled])');
      await fire.waitText('#takeback', 'Takeback proposed');
      assert.equal(await fire.eval(() => document.querySelector('#takeback').disabled), true);
      await fire.hidden('#takeback-offer');
      await water.waitText('#takeback-offer-text', 'Fire asks to take back their last move');
      await water.visible('#takeback-accept');
      assert.equal(
        await water.eval(() => document.querySelector('#takeback-accept').getAttribute('aria-label')),
        'Accept: let them take back their last move',
      );
      await water.shot('takeback-prompt');
      await water.click('#takeback-accept');

      // Both see the start position at a new version, fire to move; water's premove is gone.
      for (const p of [fire, water]) {
        await waitBoard(p, { version: '3', turn: 'fire', status: 'playing' });
        assert.deepEqual(await pieces(p), start, `${p.kind}: the board is back at the start`);
        await p.waitText('#move-list li', 'No moves yet');
        await p.hidden('#takeback-offer');
      }
      await waitBoard(water, { premove: '' });
      await fire.waitText('#takeback', 'Take back');
      await fire.visible('#takeback[disabled]'); // nothing of fire's left to take back
      await fire.waitText('.toast', 'Water accepted');

      // Fire plays another move; water's dropped premove is not played.
      await move(fire, [4, 2], [5, 3]);
      await waitBoard(water, { version: 4, turn: 'water' });
      await water.sleep(300);
      assert.equal((await board(water)).version, '4', 'nothing was played for water');
      await move(water, [5, 5], [6, 4]);
      await waitBoard(fire, { version: 5, turn: 'fire' });
      assert.deepEqual((await moveList(fire)).length, 2, 'two moves in the list');
      await fire.waitText('#move-list li', 'e3–f4');

      // The replay: the first move in the list shows the board after it; Home, the start.
      await fire.click('#move-list li:first-child button.move');
      await fire.waitText('#replay-pos', 'Move 1 of 2');
      await waitBoard(fire, { replayVersion: '4' });
      await fire.key('Home');
      await fire.waitText('#replay-pos', 'Start position');
      await waitBoard(fire, { replayVersion: '3' });
      assert.deepEqual(
        await fire.eval(() =>
          window.bombcheckers.board.state.board.pieces
            .map((q) => `${q.at[0]},${q.at[1]} ${q.side} ${q.kind} ${q.rank}`)
            .sort(),
        ),
        start,
      );
      await fire.key('ArrowRight');
      await fire.waitText('#replay-pos', 'Move 1 of 2');
      await fire.key('ArrowRight');
      await fire.waitText('#replay-pos', 'Move 2 of 2');
      await done(fire, water);
    });

    it('a takeback declined: the proposer is told, the board stays, and the game goes on', async () => {
      const { creator: fire, joiner: water } = await startGame(engine.browser);
      await openingMoves(fire, water);
      const before2 = await pieces(fire);
      await fire.click('#takeback:not([disabled])');
      await water.visible('#takeback-decline');
      await water.click('#takeback-decline');
      await water.hidden('#takeback-offer');

      await fire.waitText('#takeback-offer-text', 'Water declined your takeback');
      await fire.waitText('.toast', 'Water declined');
      await fire.shot('takeback-declined');
      await fire.visible('#takeback[disabled]'); // not again before the game moves on
      await fire.waitText('#takeback', 'Take back');
      for (const p of [fire, water]) {
        await waitBoard(p, { version: '2', turn: 'fire' });
        assert.deepEqual(await pieces(p), before2, `${p.kind}: the board stays`);
      }
      // The game goes on; the notice goes with the next move.
      await move(fire, [3, 3], [5, 5]);
      await waitBoard(water, { version: 3, turn: 'water' });
      await fire.hidden('#takeback-offer');
      await fire.visible('#takeback:not([disabled])');
      await done(fire, water);
    });

    it("against the computer a takeback is at once, the computer's reply included; after a reload the replay skips the undone moves", async () => {
      const fire = await engine.browser.person();
      await fire.goto(`${BASE}/`);
      await fire.visible('#create-btn:not([disabled])');
      await fire.click('label.variant:has(input[value="bomb"])');
      await fire.fill('#create-name', 'Ann');
      await fire.click('label.side-pick:has(input[value="fire"])');
      await fire.click('label.switch:has(#vs-ai)');
      await fire.visible('#ai-level-box');
      await fire.waitText('#create-btn', 'Play the computer');
      await fire.click('#create-btn');
      await waitBoard(fire, { seat: 'fire', status: 'playing', version: '0', turn: 'fire' });

      // Two moves each (the computer's replies wait for no one), then fire takes back the second.
      await move(fire, [2, 2], [3, 3]);
      await waitBoard(fire, { version: 2, turn: 'fire' });
      const after1 = await pieces(fire);
      const v1 = Number((await board(fire)).version);
      await move(fire, [6, 2], [7, 3]);
      await waitBoard(fire, { version: v1 + 2, turn: 'fire' });
      await fire.click('#takeback:not([disabled])');
      await waitBoard(fire, { version: v1 + 3, turn: 'fire' }, 5000);
      const vT = Number((await board(fire)).version);
      assert.deepEqual(await pieces(fire), after1, 'the board is back after the first two moves');
      assert.deepEqual((await moveList(fire)).length, 2, 'two moves left in the list');
      await fire.hidden('#takeback-offer');
      await fire.waitText('#takeback', 'Take back');
      assert.equal(await fire.count('.toast.error'), 0);

      // The game goes on from there; after a reload the list and the replay come from the record.
      await move(fire, [0, 2], [1, 3]);
      await waitBoard(fire, { version: vT + 2, turn: 'fire' });
      await fire.reload();
      await waitBoard(fire, { seat: 'fire', version: vT + 2, turn: 'fire' });
      await fire.waitFn(() => document.querySelectorAll('#move-list li button.move').length === 4);
      await fire.waitText('#move-list li:nth-child(3)', 'a3–b4');
      await fire.click('#move-list li:nth-child(2) button.move');
      await fire.waitText('#replay-pos', 'Move 2 of 4');
      await waitBoard(fire, { replayVersion: String(vT) });
      await fire.key('ArrowRight');
      await fire.waitText('#replay-pos', 'Move 3 of 4');
      await waitBoard(fire, { replayVersion: String(vT + 1) });
      await fire.key('ArrowLeft');
      await fire.key('ArrowLeft');
      await fire.waitText('#replay-pos', 'Move 1 of 4');
      await waitBoard(fire, { replayVersion: '1' });
      await done(fire);
    });
  });
}
