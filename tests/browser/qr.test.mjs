// web/qr.js against the real server: GET /api/server's LAN URLs, the invitation links of a room, and
// the QR code image from GET /api/qr loading as an SVG in the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, person, BASE } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

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
      info, inv, width: img.naturalWidth, type: res.headers.get('content-type'), svg: await res.text(),
      tooLong: qr.qrImageUrl('x'.repeat(300)),
    };
  });
  assert.deepEqual(got.info.lan_urls, [], 'a server on 127.0.0.1 has no LAN URL');
  assert.equal(got.inv.share, BASE + '/r/ABC123', 'without a LAN URL the page\'s own link is shared');
  assert.equal(got.inv.qr, '/api/qr?text=' + encodeURIComponent(BASE + '/r/ABC123'));
  assert.ok(got.width > 0);
  assert.equal(got.type, 'image/svg+xml');
  assert.match(got.svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.equal(got.tooLong, null);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
