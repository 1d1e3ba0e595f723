// The puzzles (docs/PUZZLES.md, "The page") in one browser engine (a file per engine runs it:
// both_puzzles.*.test.mjs): a puzzle solved by playing its line's turns on the board (the replies
// come by themselves), another winning turn past the first told apart from a wrong one, and a wrong
// turn said wrong at once and taken back, then the solution shown.
// The list page, phone widths and the start screen's link: puzzles.test.mjs.
import { it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { engineSuite } from '../driver.mjs';
import { done } from '../game_driver.mjs';
import { collection, fetchPuzzle, playTurn, puzzlesServer, pzBoard, waitPz, wrongTurn } from '../puzzles_driver.mjs';

export default function scenarios(kind) {
  engineSuite(kind, (engine) => {
    let server;
    let list = [];
    before(async () => {
      server = await puzzlesServer();
      list = await collection(server.base);
    });
    after(() => server?.stop());

    it('puzzles are solved by playing their lines on the board, the replies coming by themselves', async () => {
      // A puzzle of each kind with a reply to wait for (difficulty 2 or more), the easiest such.
      const picks = [...new Set(list.map((s) => s.kind))].map(
        (k) =>
          list
            .filter((s) => s.kind === k)
            .sort((a, b) => (a.difficulty < 2) - (b.difficulty < 2) || a.difficulty - b.difficulty)[0],
      );
      const p = await engine.browser.person();
      await p.goto(`${server.base}/`);
      await p.click('#open-puzzles');
      for (const pick of picks) {
        const puzzle = await fetchPuzzle(server.base, pick.id);
        if (!(await p.pathname()).endsWith('/puzzles')) await p.click('.pz-back');
        await p.click(`.pz-item[data-puzzle="${puzzle.id}"]`);
        await waitPz(p, { puzzle: puzzle.id, mode: 'solving', step: 0, position: puzzle.text });
        assert.equal(await p.pathname(), `/puzzles/${puzzle.id}`);
        await p.waitText('#pz-goal', 'to play and win');
        for (let i = 0; i < puzzle.line.length; i += 2) {
          const mine = puzzle.line[i];
          assert.equal(mine.side, puzzle.turn, 'the line alternates, the solver first');
          await playTurn(p, mine.actions);
          if (i + 1 >= puzzle.line.length) break;
          // The reply comes by itself after a short pause, and it is the player's turn again.
          await waitPz(p, { step: i + 2, mode: 'solving', position: puzzle.line[i + 1].position });
        }
        await waitPz(p, { mode: 'solved', step: puzzle.line.length, position: puzzle.line.at(-1).position });
        await p.waitText('#pz-feedback', 'Solved');
        await p.visible('#pz-next');
        assert.match(await p.eval(() => document.querySelector('#pz-next').getAttribute('href')), /^\/puzzles\/.+/);
        assert.equal(await p.count('#pz-line li'), puzzle.line.length, 'every turn is in the list of turns played');
        await p.shot(`puzzle-solved-${puzzle.kind}`);
      }
      await done(p);
    });

    it('past the first turn, another winning turn is told apart from a wrong one and taken back', async () => {
      // The first puzzle whose solver's second turn has other winning turns (`also`).
      let puzzle = null;
      for (const s of list) {
        const candidate = await fetchPuzzle(server.base, s.id);
        if (candidate.line.length > 2 && candidate.line[2].also?.length) {
          puzzle = candidate;
          break;
        }
      }
      assert.ok(puzzle, 'a puzzle with another winning turn at its solver’s second turn');
      const p = await engine.browser.person();
      await p.goto(`${server.base}/puzzles/${puzzle.id}`);
      await waitPz(p, { puzzle: puzzle.id, mode: 'solving', step: 0, position: puzzle.text });
      await playTurn(p, puzzle.line[0].actions);
      await waitPz(p, { step: 2, mode: 'solving', position: puzzle.line[1].position });
      await playTurn(p, puzzle.line[2].also[0].actions);
      await waitPz(p, { mode: 'also', step: 2, position: puzzle.line[1].position });
      await p.waitText('#pz-feedback', 'wins too');
      await playTurn(p, puzzle.line[2].actions);
      await waitPz(p, { step: 3, position: puzzle.line[2].position });
      await done(p);
    });

    it('a wrong turn is said wrong at once and taken back; Retry, then the solution is shown', async () => {
      let puzzle = null;
      let wrong = null;
      for (const s of list) {
        puzzle = await fetchPuzzle(server.base, s.id);
        wrong = wrongTurn(puzzle);
        if (wrong) break;
      }
      assert.ok(wrong, 'a puzzle with a turn other than the line’s');
      const p = await engine.browser.person();
      await p.goto(`${server.base}/puzzles/${puzzle.id}`);
      await waitPz(p, { puzzle: puzzle.id, mode: 'solving', position: puzzle.text });
      // "At once": the page times the last click on the board and the word "wrong" appearing.
      await p.eval(() => {
        window.wrongAt = null;
        // Captured on the way down, before the board's own listener acts on it.
        window.addEventListener('pointerup', () => (window.clickAt = performance.now()), true);
        new MutationObserver(() => {
          if (document.querySelector('#pz-feedback').classList.contains('wrong')) window.wrongAt ??= performance.now();
        }).observe(document.querySelector('#pz-feedback'), { attributes: true, childList: true });
      });
      await playTurn(p, wrong);
      await waitPz(p, { mode: 'wrong', step: 0, position: puzzle.text });
      const ms = await p.eval(() => window.wrongAt - window.clickAt);
      assert.ok(ms >= 0 && ms < 100, `said wrong ${ms} ms after the click: no server asked, no pause`);
      await p.waitText('#pz-feedback', 'Wrong');
      await p.visible('#pz-retry');
      await p.visible('#pz-solution');
      await p.shot('puzzle-wrong');
      await p.click('#pz-retry');
      await waitPz(p, { mode: 'solving', step: 0, position: puzzle.text });
      await p.click('#pz-solution');
      await waitPz(p, { mode: 'solution', step: puzzle.line.length, position: puzzle.line.at(-1).position });
      await p.waitText('#pz-feedback', 'That is the solution');
      await p.visible('#pz-again');
      const d = await pzBoard(p);
      assert.equal(d.puzzle, puzzle.id);
      await done(p);
    });
  });
}
