// Launching Debian's Chromium headless, as every browser test and benchmark does (a module of its
// own: helpers.mjs needs a server under test, a benchmark brings its own).
import { chromium } from 'playwright-core';

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
    timeout: 30000,
  });
}
