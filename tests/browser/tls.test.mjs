// The web client over HTTPS: a second server started here with --tls-cert (a self-signed certificate
// made with the openssl CLI). The page is https:, so the client opens wss://; two players meet by the
// link and play a move, and a plain http:// link lands on https://.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, startServer, board, waitBoard, move, shareLink, joinByLink, shot, T } from './helpers.mjs';

const BIN = process.env.BC_BINARY; // run.sh sets it

let browser;
let server;
let work;
let base = '';

// Starts the TLS server with a fresh self-signed certificate.
async function startTlsServer() {
  work = mkdtempSync(path.join(os.tmpdir(), 'bc-browser-tls-'));
  const cert = path.join(work, 'cert.pem');
  const key = path.join(work, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  server = await startServer(['--memory', '--tls-cert', cert, '--tls-key', key]);
  return server.base;
}

before(async () => {
  if (!BIN) return;
  base = await startTlsServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A person whose browser accepts the self-signed certificate. */
async function person() {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 820 } });
  context.setDefaultTimeout(T);
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  return page;
}

test(
  'over https the client plays on wss://, and http:// is redirected',
  { skip: !BIN && 'BC_BINARY is not set (run through run.sh)' },
  async () => {
    const fire = await person();
    const sockets = [];
    fire.on('websocket', (ws) => sockets.push(ws.url()));
    await fire.goto(`${base}/`);
    await fire.locator('#create-btn:not([disabled])').waitFor();
    await fire.locator('label.variant:has(input[value="bomb"])').click();
    await fire.fill('#create-name', 'Ann');
    await fire.locator('label.side-pick:has(input[value="fire"])').click();
    await fire.click('#create-btn');
    await waitBoard(fire, { seat: 'fire', status: 'waiting', version: '0' });
    const { room } = await board(fire);
    // The page asks for compact states (docs/PROTOCOL.md).
    assert.ok(
      sockets.length >= 1 && sockets.every((u) => u === `${base.replace('https:', 'wss:')}/ws?compact=2`),
      sockets.join(' '),
    );

    const link = await shareLink(fire);
    assert.equal(new URL(link).protocol, 'https:', link);
    const water = await person();
    assert.equal(await joinByLink(water, link, 'Bob'), 'water');
    await waitBoard(fire, { status: 'playing', turn: 'fire' });
    await move(fire, [2, 2], [3, 3]);
    await waitBoard(water, { version: 1, turn: 'water' });
    await shot(water, 'tls-game-over-wss');

    // A plain link to the same port lands on the https:// page of the room.
    const watcher = await person();
    await watcher.goto(`${base.replace('https:', 'http:')}/r/${room}`);
    assert.equal(watcher.url(), `${base}/r/${room}`);
    assert.deepEqual([...fire.errors, ...water.errors, ...watcher.errors], []);
  },
);
