// The computer opponent: the switch and strength slider of the create form, the `opponent` field
// of `create`, and (when the server's welcome offers computer opponents) a game against it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { person, board, waitBoard, move, shot, BASE, T } from './helpers.mjs';
import { browser } from './shared_browser.mjs';

/** Records every message the page sends on its WebSocket. */
async function spySocket(page) {
  await page.addInitScript(() => {
    window.sent = [];
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
      try {
        window.sent.push(JSON.parse(data));
      } catch {
        /* not JSON */
      }
      return send.call(this, data);
    };
  });
}

async function pickComputer(page, { name, seat, level }) {
  await page.goto(`${BASE}/`);
  await page.locator('#create-btn:not([disabled])').waitFor();
  await page.locator('label.variant:has(input[value="bomb"])').click();
  await page.fill('#create-name', name);
  await page.locator(`label.side-pick:has(input[value="${seat}"])`).click();
  await page.locator('#ai-level-box').waitFor({ state: 'hidden' });
  await page.getByText('Play against the computer').click();
  await page.locator('#ai-level-box').waitFor();
  // The slider runs from Beginner to Master.
  await page.locator('#ai-min', { hasText: 'Beginner' }).waitFor();
  await page.locator('#ai-max', { hasText: 'Master' }).waitFor();
  const range = page.locator('#ai-level');
  const levels = await page.evaluate(() => window.bombcheckers.app.ai.levels);
  await range.fill(String(levels.indexOf(level)));
  await page.locator('#ai-level-num', { hasText: String(level) }).waitFor();
  assert.equal(await page.locator('#create-btn').textContent(), 'Play the computer');
}

test('the computer-opponent picker sends `opponent` with the chosen level', async () => {
  const page = await person(browser);
  await spySocket(page);
  await pickComputer(page, { name: 'Ada', seat: 'fire', level: 1 });
  assert.equal(await page.locator('#ai-level-name').textContent(), 'Beginner');
  await page.locator('#ai-level').fill('7');
  await page.locator('#ai-level-name', { hasText: 'Master' }).waitFor();
  await page.locator('#ai-level').fill('2');
  await page.locator('#ai-level-name', { hasText: 'Casual' }).waitFor();
  await page.waitForTimeout(150);
  await shot(page, 'create-vs-computer');
  // Switched off, the form creates an ordinary game; the choice is remembered.
  await page.getByText('Play against the computer').click();
  await page.locator('#ai-level-box').waitFor({ state: 'hidden' });
  assert.equal(await page.locator('#create-btn').textContent(), 'Create game');
  await page.getByText('Play against the computer').click();
  await page.click('#create-btn');
  await page.waitForFunction(() => document.querySelector('#board').dataset.room !== '', null, { timeout: T });
  const create = await page.evaluate(() => window.sent.find((m) => m.type === 'create'));
  assert.deepEqual(create.opponent, { ai: 3 });
  const advertised = await page.evaluate(() => window.bombcheckers.app.ai.advertised);
  if (!advertised) {
    // A server without computer opponents ignores the field: the page says so and offers the link.
    await page.locator('.overlay-card', { hasText: 'no computer opponent' }).waitFor();
    await page.locator('.link-row input').waitFor();
  }
  await page.reload();
  await page.goto(`${BASE}/`);
  await page.locator('#create-btn:not([disabled])').waitFor();
  assert.ok(await page.locator('#vs-ai').isChecked(), 'the switch is remembered');
  assert.equal(await page.locator('#ai-level-num').textContent(), '3');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a game against the computer (when the server offers one)', async (t) => {
  const page = await person(browser);
  await page.goto(`${BASE}/`);
  await page.locator('#create-btn:not([disabled])').waitFor();
  const welcome = await page.evaluate(() => window.bombcheckers.app.welcome);
  if (!(welcome?.ai || welcome?.ai_levels)) {
    t.skip("the server's welcome offers no computer opponent (no `ai` field)");
    await page.context().close();
    return;
  }
  await pickComputer(page, { name: 'Ada', seat: 'fire', level: 1 });
  await page.click('#create-btn');
  await waitBoard(page, { seat: 'fire', status: 'playing', turn: 'fire' });
  await page.locator('#player-top .tag.ai').waitFor();
  await move(page, [2, 2], [3, 3]);
  // The computer answers by itself.
  await waitBoard(page, { turn: 'fire', version: 2 }, 30000);
  assert.equal((await board(page)).status, 'playing');
  await page.waitForTimeout(400);
  await shot(page, 'vs-computer');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
