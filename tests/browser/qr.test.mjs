// web/qr.js against the real server: GET /api/server's LAN URLs, the invitation links of a room, and
// the QR code image from GET /api/qr loading as an SVG in the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { person, BASE, createGame, shareLink, shot } from './helpers.mjs';
import { browser } from './shared_browser.mjs';

test('invitation links and the QR code image', async () => {
  const page = await person(browser);
  await page.goto(BASE + '/');
  const got = await page.evaluate(async () => {
    const qr = await import('/qr.js');
    const info = await qr.serverInfo();
    const inv = await qr.invitation('/r/ABC123');
    const img = qr.qrImage(inv.share, { size: 160 });
    document.body.append(img);
    await new Promise((resolve, reject) => {
      img.onload = resolve;
      img.onerror = () => reject(new Error('the QR image did not load'));
    });
    const res = await fetch(inv.qr);
    return {
      info,
      inv,
      width: img.naturalWidth,
      type: res.headers.get('content-type'),
      svg: await res.text(),
      tooLong: qr.qrImageUrl('x'.repeat(300)),
    };
  });
  assert.deepEqual(got.info.lan_urls, [], 'a server on 127.0.0.1 has no LAN URL');
  assert.equal(got.inv.share, BASE + '/r/ABC123', "without a LAN URL the page's own link is shared");
  assert.equal(got.inv.qr, '/api/qr?text=' + encodeURIComponent(BASE + '/r/ABC123'));
  assert.ok(got.width > 0);
  assert.equal(got.type, 'image/svg+xml');
  assert.match(got.svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.equal(got.tooLong, null);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the waiting card shows the invitation link and its QR code', async () => {
  const page = await person(browser);
  await page.goto(BASE + '/');
  const room = await createGame(page, { name: 'Ann', seat: 'fire' });
  const link = await shareLink(page);
  assert.equal(link, `${BASE}/r/${room}`, "a server on 127.0.0.1 has no LAN URL: the page's own link");
  const img = page.locator('#invite-qr');
  await img.waitFor();
  await page.waitForFunction(() => document.querySelector('#invite-qr')?.naturalWidth > 0, null, { timeout: 15000 });
  assert.equal(await img.getAttribute('src'), '/api/qr?text=' + encodeURIComponent(link));
  assert.equal(await img.getAttribute('alt'), `QR code of ${link}`);
  await shot(page, 'invite-qr');
  // On a phone the card, code included, stays inside the board.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(500);
  const card = await page.locator('.overlay-card.invite').boundingBox();
  const boardBox = await page.locator('#board').boundingBox();
  assert.ok(
    card.y >= boardBox.y - 1 && card.y + card.height <= boardBox.y + boardBox.height + 1,
    `the invitation card (${JSON.stringify(card)}) fits the board (${JSON.stringify(boardBox)})`,
  );
  await shot(page, 'invite-qr-phone');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
