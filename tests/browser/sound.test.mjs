// Chromium: the mute button is remembered across a reload, a page without WebAudio (or with
// it suspended) plays its sounds silently without an error, and an idle context is suspended.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { person, BASE } from './helpers.mjs';
import { browser } from './shared_browser.mjs';

test('the mute button is an aria-pressed toggle the browser remembers', async () => {
  const page = await person(browser);
  await page.goto(`${BASE}/`);
  const mute = page.getByRole('button', { name: 'Mute sounds' });
  assert.equal(await mute.getAttribute('aria-pressed'), 'false', 'sounds are on by default');
  await mute.click();
  assert.equal(await mute.getAttribute('aria-pressed'), 'true');
  await page.reload();
  assert.equal(await mute.getAttribute('aria-pressed'), 'true', 'still muted after a reload');
  await mute.click();
  await page.reload();
  assert.equal(await mute.getAttribute('aria-pressed'), 'false');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('without WebAudio, or before any click, sounds fail silently', async () => {
  for (const noAudio of [true, false]) {
    const page = await person(browser);
    if (noAudio)
      await page.addInitScript(() => {
        delete window.AudioContext;
        delete window.webkitAudioContext;
      });
    await page.goto(`${BASE}/`);
    const asked = await page.evaluate(async () => {
      const { playSound } = await import('/sounds.js');
      for (const name of ['move', 'capture', 'explosion', 'low', 'end', 'nonsense']) playSound(name);
      return window.bombcheckers.sounds.slice();
    });
    assert.deepEqual(asked, ['move', 'capture', 'explosion', 'low', 'end', 'nonsense']);
    await page.locator('#hero-title').click(); // a gesture: the context may start now
    await page.evaluate(async () => (await import('/sounds.js')).playSound('explosion'));
    assert.deepEqual(page.errors, [], noAudio ? 'no AudioContext' : 'a suspended AudioContext');
    await page.context().close();
  }
});

test('the audio context sleeps once its sounds have ended, and wakes for the next one', async () => {
  const page = await person(browser);
  await page.goto(`${BASE}/`);
  await page.locator('#hero-title').click(); // the gesture that lets audio start
  const state = () => page.evaluate(async () => (await import('/sounds.js')).audioState());
  await page.waitForFunction(async () => (await import('/sounds.js')).audioState() === 'running');
  await page.evaluate(async () => (await import('/sounds.js')).playSound('explosion'));
  assert.equal(await state(), 'running');
  // Idle, a running context would render silence for as long as the page is open.
  await page.waitForFunction(async () => (await import('/sounds.js')).audioState() === 'suspended', null, {
    timeout: 5000,
  });
  // The next sound (an opponent's move: no gesture) resumes it.
  await page.evaluate(async () => (await import('/sounds.js')).playSound('move'));
  await page.waitForFunction(async () => (await import('/sounds.js')).audioState() === 'running', null, {
    timeout: 5000,
  });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
