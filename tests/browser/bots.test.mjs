// Bots (docs/BOTS.md), in Chromium: a bot account made over HTTP (a sign-up, a token, the upgrade),
// the sample bot (bots/sample_bot.py) playing for it, and a person who opens the bot's profile, sees
// the BOT mark, challenges it from the profile's dialog (a game it declines, then a rated Kaboom game
// with a clock), is taken to the room, plays to the end against the bot's random turns, and finds
// the game on both profiles and the bot on the leaderboard.
// A server of this file's own (sign-ups are limited per address), from run.sh's BC_BINARY.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from './driver.mjs';
import { board, done, waitBoard } from './game_driver.mjs';
import { startServer } from './helpers.mjs';
import { PASSWORD, signUp, uniqueName } from './players_driver.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let browser;
let server;
let base = '';
let data = '';
let bot = null; // the sample bot's process
let botLog = '';

before(async () => {
  data = mkdtempSync(path.join(os.tmpdir(), 'bc-bots-'));
  [browser, server] = await Promise.all([launch('chromium'), startServer(['--data-dir', data, '--claim-after', '2'])]);
  base = server.base;
});
after(async () => {
  if (bot && bot.exitCode === null) {
    const gone = new Promise((done) => bot.once('exit', done));
    bot.kill('SIGTERM');
    await Promise.race([gone, new Promise((done) => setTimeout(done, 3000))]);
    if (bot.exitCode === null) bot.kill('SIGKILL');
  }
  await browser?.close();
  await server?.stop();
  if (data) rmSync(data, { recursive: true, force: true });
});

/** An HTTP call as a program makes it (no Origin): {status, json, cookie}. */
async function api(method, url, { body, cookie, token } = {}) {
  const headers = {};
  if (body) headers['Content-Type'] = 'application/json';
  if (cookie) headers.Cookie = cookie;
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${base}${url}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const json = await res.json().catch(() => null);
  const set = res.headers.get('set-cookie') ?? '';
  return { status: res.status, json, cookie: set.split(';')[0] };
}

/** A new bot account (signed up, a token made with its session, upgraded with the token): its token. */
async function makeBot(name) {
  const signup = await api('POST', '/api/signup', { body: { name, password: PASSWORD } });
  assert.equal(signup.status, 200, `sign-up: ${JSON.stringify(signup.json)}`);
  assert.match(signup.cookie, /^bc_session=/);
  const made = await api('POST', '/api/tokens', { cookie: signup.cookie, body: { label: 'sample bot' } });
  assert.equal(made.status, 200, `token: ${JSON.stringify(made.json)}`);
  const token = made.json.token;
  assert.match(token, /^bcb_[0-9a-f]{32}$/);
  const up = await api('POST', '/api/bot/account/upgrade', { token });
  assert.equal(up.status, 200, `upgrade: ${JSON.stringify(up.json)}`);
  assert.equal(up.json.bot, true);
  return token;
}

/** Starts the sample bot for `token`; resolves once it says it is signed in. */
function startBot(token, ...args) {
  bot = spawn('python3', [path.join(root, 'bots/sample_bot.py'), '--server', base, '--token', token, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the bot did not start: ${botLog}`)), 10000);
    bot.stderr.on('data', (chunk) => {
      botLog = (botLog + chunk).slice(-4000);
      if (/signed in as/.test(botLog)) {
        clearTimeout(timer);
        resolve();
      }
    });
    bot.on('exit', (code) => reject(new Error(`the bot exited with ${code}: ${botLog}`)));
  });
}

/** Our turn in Kaboom: a piece dropped in the first column that takes one (the bot's turns are random,
 *  so a line of ours in column 1 soon wins); resolves with the state's version after it. */
async function dropOne(p) {
  const v = Number((await board(p)).version);
  const column = await p.eval(
    () => document.querySelector('#game button.drop[data-piece="normal"]:not([disabled])')?.dataset.column ?? null,
  );
  assert.notEqual(column, null, 'a column takes a piece');
  await p.click(`#game button.drop[data-piece="normal"][data-column="${column}"]`);
  await waitBoard(p, { version: v + 1 });
}

test(
  'a person challenges the sample bot from its profile, plays a rated Kaboom game against it, and finds it on both profiles',
  { timeout: 90000 },
  async () => {
    const botName = uniqueName('Bot');
    await startBot(await makeBot(botName), '--variants', 'kaboom');

    const person = uniqueName('Ann');
    const p = await browser.person();
    await signUp(p, base, person);

    // The bot's profile: its BOT mark and the Challenge button.
    await p.goto(`${base}/@/${botName}`);
    await p.waitText('#profile-name', botName);
    await p.visible('#profile-name .bot-mark');
    await p.click('#challenge-btn');
    await p.visible('#challenge-dialog[open]');
    const pick = (choices) =>
      p.eval((c) => {
        for (const [id, value] of Object.entries(c)) {
          const el = document.querySelector(id);
          el.value = value;
          el.dispatchEvent(new Event('change', { bubbles: true }));
        }
      }, choices);
    // A game the bot does not play (it was started for Kaboom only): it declines, and the dialog says why.
    await pick({ '#challenge-variant': 'bomb', '#challenge-clock': 'none' });
    assert.equal(
      await p.eval(() => document.querySelector('#challenge-rated').disabled),
      true,
      'no rating without a clock',
    );
    await p.click('#challenge-send');
    await p.waitText('#challenge-error', `${botName} declined: I play only kaboom.`);
    // Kaboom, rated, with a clock, moving first.
    await pick({ '#challenge-variant': 'kaboom', '#challenge-clock': '180+2', '#challenge-side': 'first' });
    await p.setChecked('#challenge-rated', true);
    await p.shot('bots-challenge-dialog');
    await p.click('#challenge-send');

    // The bot accepts; the page goes to the room and sits in the seat kept for it.
    await waitBoard(p, { status: 'playing', seat: 'x' }, 20000);
    const room = (await board(p)).room;
    assert.equal(await p.pathname(), `/r/${room}`);
    assert.equal(await p.eval(() => document.querySelector('#challenge-dialog').open), false, 'the dialog closed');
    const seats = await p.eval(() => window.bombcheckers.app.state.players);
    assert.equal(seats.o?.account ?? seats.o?.name, botName, `the bot sits as o: ${JSON.stringify(seats)}`);
    // A seat that says it is a bot's has the mark on its card.
    if (seats.o?.bot) await p.visible('#game .player.side-o .bot-mark');

    // To the end: x drops, the bot answers, until one wins or the grid is full.
    for (let i = 0; i < 40; i++) {
      await p.waitFn(() => {
        const d = document.querySelector('#board').dataset;
        return d.status === 'finished' || d.turn === 'x';
      });
      if ((await board(p)).status === 'finished') break;
      await dropOne(p);
    }
    await waitBoard(p, { status: 'finished' });
    await p.waitFn(() => document.querySelectorAll('#game .player .rating-diff').length === 2);
    await p.shot('bots-game-end');

    // The game on both profiles, through the page's own links.
    await p.click('#account-name');
    await p.waitText('#profile-name', person);
    await p.visible(`#profile-games li[data-room="${room}"]`);
    await p.waitText(`#profile-games li[data-room="${room}"] .game-vs`, botName);
    await p.click(`#profile-games li[data-room="${room}"] .game-vs a`);
    await p.waitText('#profile-name', botName);
    await p.visible('#profile-name .bot-mark');
    await p.visible(`#profile-games li[data-room="${room}"]`);
    await p.waitText(`#profile-games li[data-room="${room}"] .game-vs`, person);
    await p.waitText('#profile-ratings .perf', 'Kaboom');
    await p.shot('bots-profile');

    // The leaderboard marks the bot too.
    await p.goto(`${base}/leaderboard`);
    await p.waitText('.lb-perf li', botName);
    await p.visible('.lb-perf li:has(.bot-mark)');
    await done(p);
  },
);
