// The game's buttons (share, flip, resign, draw, rematch, leave) and its chat.

import { t } from './i18n.js';
import { invitation } from './qr.js';
import { $, confirmDialog, copyText, h, sideName, toast } from './ui.js';
import { app, batch, dispatch } from './store/store.js';
import { atOneScreen, board, flipped, mySide, send } from './context.js';
import { screen } from './screen.js';
import { endTurn } from './acts.js';
import { leaveToStart } from './lobby.js';
import { sendLeave } from './room_requests.js';
import { otherSide, sideWithName } from './one_screen.js';

// ---- game controls ----------------------------------------------------------------------------

/** The link to send: the LAN address when this page was opened through localhost, else its own. */
export function shareLink() {
  const own = location.origin + (app.url ?? `/r/${app.room}`);
  return app.invite?.room === app.room ? app.invite.share : own;
}

/** Asks the server for its LAN addresses once per room, for the invitation's link and QR code. */
export async function loadInvitation(room, url) {
  if (app.invite?.room === room) return;
  const inv = await invitation(url);
  if (app.room !== room) return;
  screen.forgetOverlay();
  dispatch({ type: 'got/invite', invite: { ...inv, room } });
}

export async function copyLink() {
  const link = shareLink();
  const ok = await copyText(link);
  if (ok) toast(t('controls.link_copied'), 'ok');
  else {
    toast(t('controls.copy_this', { link }), 'info', 8000);
  }
}

export function askRematch() {
  if (app.rematchAsked || app.replaced) return;
  if (send({ type: 'rematch' }, { kind: 'rematch' }) !== null) {
    dispatch({ type: 'sent/rematch' });
    // At one screen both sides ask at once: the new game starts without a word.
    if (!atOneScreen()) toast(t('controls.rematch_asked'), 'info');
  }
}

$('#end-turn').addEventListener('click', endTurn);
$('#copy-link').addEventListener('click', copyLink);
$('#flip').addEventListener('click', () => {
  batch(() => {
    dispatch({ type: 'want/flip' });
    board.setFlipped(flipped());
  });
});
$('#resign').addEventListener('click', async () => {
  // At one screen the side to move resigns (the server's rule): the question names both sides.
  const side = atOneScreen() ? app.state.turn : null;
  const question = side
    ? t('controls.resigns_q', { side: sideWithName(side), other: sideWithName(otherSide(side)) })
    : t('controls.resign_q');
  if (await confirmDialog(question, t('html.resign'))) {
    send({ type: 'resign' }, { kind: 'resign' });
  }
});
$('#offer-draw').addEventListener('click', () => {
  if (send({ type: 'offer_draw' }, { kind: 'offer_draw' }) !== null) {
    dispatch({ type: 'sent/draw_offer', from: mySide() });
  }
});
$('#draw-accept').addEventListener('click', () => {
  send({ type: 'answer_draw', accept: true }, { kind: 'answer_draw' });
  dispatch({ type: 'sent/draw_answer' });
});
$('#draw-decline').addEventListener('click', () => {
  send({ type: 'answer_draw', accept: false }, { kind: 'answer_draw' });
  dispatch({ type: 'sent/draw_answer' });
});
$('#rematch').addEventListener('click', askRematch);
/** Tells the server we leave. Before the room's first game starts that frees our seat and voids its
 *  token, so the saved seat goes too (kept, it would only earn a bad_token next time); at one
 *  screen the seats are never freed, and the saved seat brings both back. */

$('#leave').addEventListener('click', () => {
  sendLeave();
  leaveToStart();
  history.pushState({}, '', '/');
});

export function onDrawOffer(msg) {
  dispatch({ type: 'got/draw_offer', from: msg.from });
  if (msg.from !== app.seat && !atOneScreen()) toast(t('game.offers_draw', { side: sideName(msg.from) }), 'info');
}

// ---- chat -------------------------------------------------------------------------------------

export function onChat(msg) {
  const log = $('#chat-log');
  const seat = typeof msg.seat === 'string' ? msg.seat : 'spectator';
  log.append(
    h(`li.side-${seat}`, {}, h('strong', {}, msg.from || sideName(seat) || t('controls.someone')), ' ', msg.text ?? ''),
  );
  while (log.children.length > 200) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

$('#chat-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const input = $('#chat-input');
  const text = input.value.trim();
  if (!text) return;
  if (send({ type: 'chat', text }, { kind: 'chat' }) !== null) input.value = '';
});
