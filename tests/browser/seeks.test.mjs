// Open seeks (docs/PLAYERS.md, "Seeks") in the web client, in Chromium: the New game form's
// opponent rating range (so many points around our rating, or the lowest and highest typed), sent
// as `create`'s `range`; the room list's "rated · 1300–1700" (or "1600+"), a seek we may take
// (Play) and one we may not (Play disabled, the reason beside it); the join dialog's reason, and
// the server's rating_out_of_range shown when a join is refused anyway.
// Sign-ups are limited per address (five at once), so this file has a server of its own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './driver.mjs';
import { board, done, shareLink, waitBoard } from './game_driver.mjs';
import { playersServer, signUp, uniqueName } from './players_driver.mjs';

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

/** Chooses `value` in the select `css`, as a person would (a change event). */
function choose(p, css, value) {
  return p.eval(
    ([c, v]) => {
      const sel = document.querySelector(c);
      sel.value = v;
      sel.dispatchEvent(new Event('change', { bubbles: true }));
    },
    [css, value],
  );
}

/** On the start page of a signed-in person: a rated Bomb game at 5+3 on fire, Rated ticked. */
async function ratedForm(p) {
  await p.visible('#create-btn:not([disabled])');
  await p.click('label.variant:has(input[value="bomb"])');
  await p.click('label.side-pick:has(input[value="fire"])');
  await p.click('label.clock-pick:has(input[value="5+3"])');
  assert.equal(await p.eval(() => document.querySelector('#rated-range-box').hidden), true, 'no range unless rated');
  await p.setChecked('#rated', true);
  await p.visible('#rated-range');
}

/** Creates the form's game and returns its room once the creator sits on fire, waiting. */
async function create(p) {
  await p.click('#create-btn');
  await waitBoard(p, { seat: 'fire', status: 'waiting' });
  return (await board(p)).room;
}

const row = (room) => `li.room[data-room="${room}"]`;

test('a seek for 1300–1700 is taken by a new player; one for 1600 and up shows why it cannot be', async () => {
  // Ann's seek: ±200 around her blitz rating (1500, new), the numbers in the option itself.
  const ann = await browser.person();
  await signUp(ann, base, uniqueName('Ann'));
  await ratedForm(ann);
  await ann.waitText('#rated-range option[value="200"]', '±200 (1300–1700)');
  await ann.waitText('#rated-range-note', 'Your blitz rating: 1500');
  await choose(ann, '#rated-range', '200');
  await ann.waitText('#rated-range-note', 'rated 1300–1700 can take the other seat');
  await ann.shot('seeks-form');
  const open = await create(ann);

  // Cid's seek: the lowest typed, 1600 (a new player's 1500 is below it); a lowest over the highest
  // is refused by the form first.
  const cid = await browser.person();
  await signUp(cid, base, uniqueName('Cid'));
  await ratedForm(cid);
  await choose(cid, '#rated-range', 'custom');
  await cid.visible('#rated-min');
  await cid.fill('#rated-min', '1800');
  await cid.fill('#rated-max', '1700');
  await cid.waitText('#rated-range-note', 'the lowest first');
  await cid.click('#create-btn');
  await cid.waitText('.toast', 'the lowest first');
  assert.equal(await cid.eval(() => document.activeElement.id), 'rated-min');
  await cid.fill('#rated-min', '1600');
  await cid.fill('#rated-max', '');
  await cid.waitText('#rated-range-note', 'rated 1600 and up');
  const closed = await create(cid);
  const link = await shareLink(cid);

  // Bea, new too, sees both in the list with their ranges: Ann's she may play, Cid's not.
  const bea = await browser.person();
  await signUp(bea, base, uniqueName('Bea'));
  await bea.waitText(`${row(open)} .pill.rated`, 'rated · 1300–1700');
  await bea.waitText(`${row(closed)} .pill.rated`, 'rated · 1600+');
  await bea.waitText(`${row(closed)} .seek-why`, 'your blitz rating is 1500');
  const play = (room) =>
    bea.eval((css) => {
      const b = document.querySelector(`${css} button[aria-label^="Play"]`);
      return { disabled: b.disabled, describedBy: b.getAttribute('aria-describedby') };
    }, row(room));
  assert.deepEqual(await play(closed), { disabled: true, describedBy: `seek-why-${closed}` });
  assert.deepEqual(await play(open), { disabled: false, describedBy: null });
  assert.equal(await bea.count(`${row(open)} .seek-why`), 0);
  assert.equal(
    await bea.eval((css) => document.querySelector(`${css} button[aria-label^="Watch"]`).disabled, row(closed)),
    false,
    'watching stays possible',
  );
  await bea.eval(() => document.querySelector('.rooms').scrollIntoView({ block: 'center' }));
  await bea.shot('seeks-room-list');

  // Cid's link: the dialog says why and offers only Watch; a join sent anyway (Enter in the name
  // field) is refused with the server's reason, and she watches.
  await bea.goto(link);
  await bea.visible('#join-dialog[open]');
  await bea.waitText('#join-info', 'for ratings 1600 and up');
  await bea.waitText('#join-info', 'You can watch');
  await bea.hidden('#join-play');
  await bea.eval(() => document.querySelector('#join-dialog-form').requestSubmit());
  await bea.sleep(2000);
  console.log(
    await bea.eval(() => ({
      t: [...document.querySelectorAll('.toast')].map((e) => e.textContent),
      b: { ...document.querySelector('#board').dataset },
      j: window.bombcheckers.app.joinReq,
    })),
  );
  await bea.waitText('.toast', 'for ratings from 1600 to 4000');
  await waitBoard(bea, { seat: 'spectator', room: closed });

  // Back to the list, and Play on Ann's seek: the game starts.
  await bea.goto(`${base}/`);
  await bea.click(`${row(open)} button[aria-label^="Play"]`);
  await waitBoard(bea, { seat: 'water', status: 'playing', room: open });
  await waitBoard(ann, { seat: 'fire', status: 'playing' });
  await ann.waitFn(
    () => [...document.querySelectorAll('#game .player .rating')].map((e) => e.textContent).join() === '1500?,1500?',
  );
  await done(ann, bea, cid);
});
