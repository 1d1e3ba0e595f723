// One headless Chromium for the test file that imports this module, launched before its first test
// and closed after its last (each file runs in a node process of its own). `browser` is a live
// binding: it holds the browser once the tests run.
import { before, after } from 'node:test';
import { launch } from './helpers.mjs';

export let browser;

before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});
