// Chromium: the clock's numbers and words (web/clocks.js, web/time_control.js) in the page, without
// a game: how a time is shown, what a running clock reads, how a custom time is read, a clocked
// game's results in words; and the start screen's choice of a clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { person, BASE } from './helpers.mjs';
import { browser } from './shared_browser.mjs';

test('clock times, time controls and custom minutes', async () => {
  const page = await person(browser);
  await page.goto(`${BASE}/`);
  const got = await page.evaluate(async () => {
    const { formatClock, timeLeft } = await import('/clocks.js');
    const { controlWords, fischerName, parseMinutes } = await import('/time_control.js');
    const clock = { control: '5+3', left: { fire: 300000, water: 9000 }, running: 'fire', at: 1000 };
    return {
      times: [300000, 299001, 65000, 10000, 9999, 9400, 0, -5, 3723000, 259200000 - 1].map(formatClock),
      left: [
        timeLeft(clock, 'fire', 2500),
        timeLeft(clock, 'water', 2500),
        timeLeft(clock, 'fire', 999999),
        timeLeft(clock, 'fire', 500),
        timeLeft(clock, 'nobody', 2500),
      ],
      names: [fischerName(180, 2), fischerName(2, 0), fischerName(90.5, 1.5)],
      words: ['5+3', '1+0', '2s+0', '3d', '1d', null].map(controlWords),
      minutes: ['5', '1.5', '0:02', '1:30', ' 2,5 ', '', 'abc', '1:75'].map(parseMinutes),
    };
  });
  assert.deepEqual(got.times, [
    '05:00',
    '04:59',
    '01:05',
    '00:10',
    '00:09.9',
    '00:09.4',
    '00:00.0',
    '00:00.0',
    '1:02:03',
    '2d 23h',
  ]);
  assert.deepEqual(got.left, [298500, 9000, 0, 300000, null]);
  assert.deepEqual(got.names, ['3+2', '2s+0', '90.5s+1.5']);
  assert.deepEqual(got.words, [
    '5 minutes + 3 s a move',
    '1 minute, no increment',
    '2 s, no increment',
    'Correspondence: 3 days a move',
    'Correspondence: 1 day a move',
    'No clock',
  ]);
  assert.deepEqual(got.minutes.slice(0, 5), [300, 90, 2, 90, 150]);
  assert.ok(got.minutes.slice(5).every(Number.isNaN));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the results of a clock: on time, aborted, abandoned (won, and drawn with or without who left)', async () => {
  const page = await person(browser);
  await page.goto(`${BASE}/`);
  const got = await page.evaluate(async () => {
    const { resultShort, resultText } = await import('/ui.js');
    const sides = ['fire', 'water'];
    const results = [
      { winner: 'water', reason: 'timeout' },
      { winner: null, reason: 'aborted' },
      { winner: 'fire', reason: 'abandoned' },
      { winner: null, reason: 'abandoned' },
    ];
    return {
      text: results.map((r) => resultText(r, sides, 4, false, 'water')),
      short: results.map((r) => resultShort(r, sides, 'water')),
      unknown: [resultText(results[3], sides, 4, false), resultShort(results[3], sides), resultShort(results[2])],
    };
  });
  assert.deepEqual(got.text, [
    'Water wins on time: Fire ran out of time.',
    'Aborted: a first move was not made in time.',
    'Fire wins: Water left the game.',
    'Drawn: Water left the game.',
  ]);
  assert.deepEqual(got.short, ['Water wins on time', 'Aborted', 'Fire wins: Water left', 'Drawn: Water left']);
  assert.deepEqual(got.unknown, ['Drawn: a player left the game.', 'Drawn by abandonment', 'Fire wins by abandonment']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the start screen's clock choice: none by default, marked by a class, custom and days fields shown when chosen", async () => {
  const page = await person(browser);
  await page.goto(`${BASE}/`);
  await page.locator('#create-btn:not([disabled])').waitFor();
  const marked = () => page.locator('label.clock-pick.is-checked input').evaluateAll((els) => els.map((e) => e.value));
  assert.deepEqual(
    await page.locator('label.clock-pick input').evaluateAll((els) => els.map((e) => e.value)),
    ['none', '3+2', '5+3', '10+5', '15+10', 'custom', 'days'],
    'the presets come from the welcome',
  );
  assert.deepEqual(await marked(), ['none']);
  assert.ok(await page.locator('#clock-custom').isHidden());
  await page.locator('label.clock-pick:has(input[value="custom"])').click();
  assert.deepEqual(await marked(), ['custom']);
  await page.locator('#clock-minutes').waitFor();
  await page.locator('label.clock-pick:has(input[value="days"])').click();
  assert.ok(await page.locator('#clock-custom').isHidden());
  assert.deepEqual(await page.locator('#clock-days-n option').evaluateAll((els) => els.map((e) => e.value)), [
    '1',
    '2',
    '3',
    '5',
    '7',
    '14',
  ]);
  assert.equal(await page.locator('#clock-days-n').inputValue(), '3');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
