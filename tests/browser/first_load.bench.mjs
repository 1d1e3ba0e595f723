// The page's first load, timed in Chromium against one or more servers side by side: what a first
// visit fetches (files, and bytes on the wire as the server sent them: gzipped where it gzips),
// the time until the start screen can create a game (connected, the games listed), and the
// service worker's precache fetched after it for play with no server. Each round opens every URL
// once, in turn, in a fresh browser context (an empty cache). A benchmark: it prints figures and
// fails only when a page never becomes ready.
//   node tests/browser/first_load.bench.mjs [--rounds N] URL [URL...]   (servers on 127.0.0.1)
import { launch } from './launch.mjs';

const args = process.argv.slice(2);
let rounds = 7;
const urls = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--rounds') rounds = Number(args[++i]);
  else urls.push(args[i]);
}
if (!urls.length || !(rounds > 0)) {
  console.error('usage: node tests/browser/first_load.bench.mjs [--rounds N] URL [URL...]');
  process.exit(2);
}
for (const u of urls) {
  const host = new URL(u).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost') {
    console.error(`first_load: ${u} is not on this machine (127.0.0.1 only)`);
    process.exit(2);
  }
}

const browser = await launch();

/** One first visit: the page's own files until ready, then what the service worker adds. */
async function visit(url) {
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  const page = await context.newPage();
  // Every request, with its size on the wire once finished: the page's own up to ready, and
  // those of the service worker (its precache) after.
  const requests = [];
  const sizes = new Map();
  context.on('request', (req) => requests.push(req));
  context.on('requestfinished', (req) =>
    sizes.set(
      req,
      req
        .sizes()
        .then((z) => z.responseBodySize + z.responseHeadersSize)
        .catch(() => 0),
    ),
  );
  const t0 = Date.now();
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(
    () =>
      document.querySelector('#conn')?.classList.contains('online') &&
      document.querySelectorAll('#variant-list input[name=variant]').length > 0,
    null,
    { timeout: 15000, polling: 'raf' },
  );
  const ready = Date.now() - t0;
  const before = requests.length;
  // The worker caches web/ once it is installed; wait for it (bounded) to count what it fetched.
  await page
    .waitForFunction(
      async () => (await navigator.serviceWorker?.getRegistration())?.active?.state === 'activated',
      null,
      {
        timeout: 20000,
      },
    )
    .catch(() => {});
  await page.waitForTimeout(500);
  const bytesOf = async (reqs) => (await Promise.all(reqs.map((r) => sizes.get(r) ?? 0))).reduce((a, b) => a + b, 0);
  const own = requests.slice(0, before).filter((r) => !r.serviceWorker());
  const workers = requests.filter((r) => r.serviceWorker());
  const result = {
    ready,
    pageBytes: await bytesOf(own),
    pageFiles: own.length,
    worker: await bytesOf(workers),
    workerFiles: workers.length,
  };
  await context.close();
  return result;
}

const results = urls.map(() => []);
for (let r = 0; r < rounds; r++) {
  for (let i = 0; i < urls.length; i++) results[i].push(await visit(urls[i]));
}
await browser.close();

const stat = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[0]} / ${s[Math.floor(s.length / 2)]} / ${s[s.length - 1]}`;
};
console.log(`first load, ${rounds} rounds, Chromium, a fresh context each (min / median / max)`);
urls.forEach((u, i) => {
  const rs = results[i];
  const last = rs[rs.length - 1];
  console.log(`${u}`);
  console.log(`  page: ${last.pageFiles} files, ${stat(rs.map((x) => x.pageBytes))} bytes on the wire`);
  console.log(`  ready to create a game: ${stat(rs.map((x) => x.ready))} ms`);
  console.log(
    `  service worker's precache: ${last.workerFiles} files, ${stat(rs.map((x) => x.worker))} bytes; first visit in all ${stat(rs.map((x) => x.pageBytes + x.worker))} bytes`,
  );
});
