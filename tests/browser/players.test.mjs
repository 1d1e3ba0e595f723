// Players in the web client (docs/PLAYERS.md), in Chromium: the top bar's sign-up and sign-in forms
// with the server's refusals, sessions and signing out everywhere; a guest made when first needed
// (a pool pressed, a rated room joined) and the pool's Cancel; the New game form's Rated box; the
// profile and leaderboard pages when there is nothing to show; a server without players. A whole
// rated game from a pool, in every browser: both/players.mjs.
// Sign-ups are limited per address (five at once), so this file has servers of its own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './driver.mjs';
import { board, createGame, done, shareLink, waitBoard } from './game_driver.mjs';
import {
  enterPool,
  openAccountMenu,
  PASSWORD,
  playersServer,
  sendAccountForm,
  signUp,
  uniqueName,
  waitSignedIn,
} from './players_driver.mjs';

let browser;
let server;
let base = '';

before(async () => {
  [browser, server] = await Promise.all([launch('chromium'), playersServer()]);
  base = server.base;
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Waits until the page knows who it plays as: `app.me` as `want` ({guest, name}), or nobody. */
function waitMe(p, want) {
  return p.waitFn((w) => {
    const { app } = window.bombcheckers;
    if (app.accounts !== true) return false;
    if (w === null) return app.me === null;
    return !!app.me && app.me.guest === w.guest && (w.name === undefined || app.me.name === w.name);
  }, want);
}

const guestShown = (p) =>
  p.waitFn(() => {
    const a = document.querySelector('#account-name');
    return !document.querySelector('#account').hidden && a.textContent === 'Guest' && !a.hasAttribute('href');
  });

test('signing up and in: the server’s refusals by the form, sessions, signing out here and everywhere', async () => {
  const name = uniqueName('Kim');
  const p = await browser.person();
  await p.goto(`${base}/`);
  await guestShown(p);
  await p.waitText('#account-summary', 'Sign in');

  // The sign-up form first; a name the rules refuse, then a password too short: the server's words.
  await sendAccountForm(p, 'signup', '1kim');
  await p.waitText('#signup-error', 'a name starts with a letter');
  assert.equal(await p.eval(() => document.activeElement.id), 'signup-name', 'the name to correct has the focus');
  await p.fill('#signup-name', name);
  await p.fill('#signup-password', 'short');
  await p.click('#signup-btn');
  await p.waitFn(() => /password/i.test(document.querySelector('#signup-error').textContent));
  await p.fill('#signup-password', PASSWORD);
  await p.click('#signup-btn');
  await waitSignedIn(p, name);
  await waitMe(p, { guest: false, name });
  assert.equal(await p.eval(() => document.querySelector('#account-menu').open), false, 'the menu closed');
  await p.waitText('#account-summary', 'Account');

  // The name is taken now, whatever its case.
  const other = await browser.person();
  await other.goto(`${base}/`);
  await sendAccountForm(other, 'signup', name.toUpperCase());
  await other.waitText('#signup-error', 'taken');

  // Signing in: a wrong password, then the right one; the first browser lists both sessions.
  await other.click('#to-signin');
  await sendAccountForm(other, 'signin', name, 'not-the-password');
  await other.waitText('#signin-error', 'wrong name or password');
  await other.fill('#signin-password', PASSWORD);
  await other.click('#signin-btn');
  await waitSignedIn(other, name);
  await openAccountMenu(p);
  await p.waitText('#account-who', name);
  await p.waitFn(() => document.querySelectorAll('#session-list li').length === 2);
  await p.waitText('#session-list li.current', 'This browser');
  await p.shot('players-account-menu');
  await p.key('Escape');
  await p.waitFn(() => !document.querySelector('#account-menu').open);

  // Out everywhere from the second browser: the first is a nobody after a reload.
  await openAccountMenu(other);
  await other.click('#sign-out-all');
  await guestShown(other);
  await waitMe(other, null);
  await p.reload();
  await guestShown(p);
  await waitMe(p, null);

  // In again, and out of this browser only.
  await sendAccountForm(p, 'signin', name);
  await waitSignedIn(p, name);
  await openAccountMenu(p);
  await p.click('#sign-out');
  await guestShown(p);
  await waitMe(p, null);
  await done(p, other);
});

test('pressing a pool makes a guest, which waits there until Cancel; the grid follows the game chosen', async () => {
  const p = await browser.person();
  await p.goto(`${base}/`);
  await p.visible('#pools-card');
  await waitMe(p, null);
  const pools = await p.eval(() => [...document.querySelectorAll('#pool-grid button')].map((b) => b.dataset.pool));
  assert.deepEqual(pools, ['bomb-3+2', 'bomb-5+3', 'bomb-10+5', 'bomb-15+10']);
  await p.waitText('#pool-grid button[data-pool="bomb-10+5"]', 'Rapid');

  await enterPool(p, 'bomb-5+3');
  await p.waitText('#pool-wait-text', '1 in the pool');
  await waitMe(p, { guest: true });
  await guestShown(p); // a guest, still "Guest" in the top bar
  assert.equal(
    await p.eval(() => document.querySelector('[data-pool="bomb-5+3"]').getAttribute('aria-pressed')),
    'true',
  );
  await p.shot('players-pool-waiting');
  await p.click('#pool-cancel');
  await p.hidden('#pool-wait');
  assert.equal(await p.eval(() => window.bombcheckers.app.pool), null);
  assert.equal(
    await p.eval(() => document.querySelector('[data-pool="bomb-5+3"]').getAttribute('aria-pressed')),
    'false',
  );

  // Another game's pools; the choice is kept for the next visit.
  await p.eval(() => {
    const sel = document.querySelector('#pool-variant');
    sel.value = 'classic';
    sel.dispatchEvent(new Event('change'));
  });
  await p.visible('#pool-grid button[data-pool="classic-3+2"]');
  await p.reload();
  await p.visible('#pool-grid button[data-pool="classic-15+10"]');
  await done(p);
});

test('the Rated box needs a clock and two people; a rated game made and joined by guests shows their ratings', async () => {
  const creator = await browser.person();
  await creator.goto(`${base}/`);
  await creator.visible('#rated-box');
  const rated = () =>
    creator.eval(() => ({
      disabled: document.querySelector('#rated').disabled,
      checked: document.querySelector('#rated').checked,
    }));
  assert.deepEqual(await rated(), { disabled: true, checked: false });
  await creator.waitText('#rated-note', 'Needs a clock');
  await creator.click('label.clock-pick:has(input[value="5+3"])');
  assert.equal((await rated()).disabled, false, 'with a clock it can be ticked');
  await creator.setChecked('#rated', true);
  await creator.click('label.switch:has(#vs-ai)'); // on
  assert.deepEqual(await rated(), { disabled: true, checked: false }, 'not against the computer');
  await creator.waitText('#rated-note', 'computer');
  await creator.click('label.switch:has(#vs-ai)'); // off
  await creator.click('label.side-pick:has(input[value="both"])');
  assert.equal((await rated()).disabled, true, 'not at one screen');
  await creator.click('label.side-pick:has(input[value="fire"])');
  await creator.setChecked('#rated', true);

  // Created by a browser with no player: a guest is made for it first.
  await creator.click('#create-btn');
  await waitBoard(creator, { seat: 'fire', status: 'waiting' });
  await waitMe(creator, { guest: true });
  await creator.waitText('#game .player.side-fire .rating', '1500?');
  const link = await shareLink(creator);

  // The room list says it is rated; its link's Play makes a guest too, who takes the free seat.
  const joiner = await browser.person();
  await joiner.goto(`${base}/`);
  const room = (await board(creator)).room;
  await joiner.waitText(`li.room[data-room="${room}"] .pill.rated`, 'rated');
  await joiner.goto(link);
  await joiner.visible('#join-dialog[open]');
  await joiner.waitText('#join-info', 'Rated');
  await joiner.click('#join-play');
  await waitBoard(joiner, { seat: 'water', status: 'playing' });
  await waitMe(joiner, { guest: true });
  for (const p of [creator, joiner]) {
    await p.waitFn(
      () => [...document.querySelectorAll('#game .player .rating')].map((e) => e.textContent).join() === '1500?,1500?',
    );
    assert.equal(await p.count('#game .player a.pname'), 0, 'a guest has no profile to link');
  }
  await done(creator, joiner);
});

test('the profile and leaderboard pages: from the start page, with nothing to show, and a name nobody has', async () => {
  // A server of its own: nothing rated on it, and its own sign-ups (the first test spends four).
  const fresh = await playersServer();
  try {
    await emptyPages(fresh.base);
  } finally {
    await fresh.stop();
  }
});

async function emptyPages(base) {
  const p = await browser.person();
  await p.goto(`${base}/`);
  await p.click('#leaderboard-link');
  await p.waitText('#leaderboard-message', 'No rated games yet');
  assert.equal(await p.pathname(), '/leaderboard');
  assert.equal(await p.eval(() => document.querySelector('#start').hidden), true);
  await p.goto(`${base}/@/Nobody_here`);
  await p.waitText('#profile-message', 'There is no player named “Nobody_here”');
  // A new account's page: no games yet.
  const name = uniqueName('Lee');
  await signUp(p, base, name);
  await p.click('#account-name');
  await p.waitText('#profile-name', name);
  await p.waitText('#profile-ratings', 'No rated games yet');
  await p.waitText('#profile-games', 'No rated games yet');
  assert.equal(await p.eval(() => document.querySelector('#profile-chart-card').hidden), true);
  // Back goes to the start page.
  await p.eval(() => history.back());
  await p.visible('#start');
  await done(p);
}

test('a server without players shows none of it: no account, no pools, no Rated box', async () => {
  const bare = await playersServer(['--no-accounts']);
  try {
    const p = await browser.person();
    await createGame(p, { name: 'Pat', seat: 'fire', clock: '5+3', base: bare.base });
    await p.waitFn(() => window.bombcheckers.app.accounts === false);
    for (const css of ['#account', '#pools-card', '#rated-box']) {
      assert.equal(await p.eval((c) => document.querySelector(c).hidden, css), true, `${css} hidden`);
    }
    await waitBoard(p, { seat: 'fire', status: 'waiting' });
    assert.equal(await p.count('#game .player .rating'), 0);
    await done(p);
  } finally {
    await bare.stop();
  }
});
