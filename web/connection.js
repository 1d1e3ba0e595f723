// The connection and the server's messages about the room: welcome, joined, notices, errors.

import { errorText, t } from './i18n.js';
import { $, confirmDialog, sideName, toast } from './ui.js';
import { app, batch, dispatch } from './store/store.js';
import { normRoom, saved } from './store/saved.js';
import { atOneScreen, hint, net, send } from './context.js';
import { loadInvitation, onChat, onDrawOffer } from './controls.js';
import { applyDelta } from './delta.js';
import { clearGameScreen, onState } from './game_state.js';
import { onPresence } from './presence.js';
import { onPong, reportLag, sendPing } from './server_time.js';
import { renderTimeControl } from './time_control.js';
import { screen, showScreen } from './screen.js';
import { onTakebackNews } from './takeback.js';
import { onAnalysisReply } from './values.js';
import { leaveToStart, refreshRooms } from './lobby.js';
import { renderOpponentPicker, renderVariantPicker } from './create_form.js';
import { sendJoin } from './room_requests.js';
import { learnVariants } from './variants.js';
import { loadMe, socketOpened } from './account.js';
import { onPaired, onPool, resendPool } from './pools.js';

export function setConn(online, text) {
  const el = $('#conn');
  el.classList.toggle('online', online);
  el.querySelector('.conn-text').textContent = text;
}

/** The banner over the page: a spinner while something is under way, or a button to act on it. */
function showBanner(text, { spinner = true, action = null, onAction = null } = {}) {
  $('#banner-text').textContent = text;
  $('#banner-spinner').hidden = !spinner;
  const btn = $('#banner-action');
  btn.hidden = !action;
  btn.textContent = action ?? '';
  btn.onclick = onAction;
  $('#banner').hidden = false;
}

function showReplaced() {
  showBanner(t('conn.replaced'), {
    spinner: false,
    action: t('conn.play_here'),
    onAction: playHere,
  });
}

/** Takes the seat back from the other tab (which is paused in turn). */
function playHere() {
  if (!app.replaced || !app.room) return;
  dispatch({ type: 'want/play_here', name: saved.name || 'Guest' });
  $('#banner').hidden = true;
  if (net.connected) sendJoin();
}

let wasDown = false; // the socket closed (not renewed by the page): who we are may have changed too

export function onOpen() {
  if (net.offline) return onOfflineOpen();
  dispatch({ type: 'net/open' });
  setConn(true, t('conn.online'));
  if (app.replaced) showReplaced();
  else $('#banner').hidden = true;
  if (app.joinReq) sendJoin();
  resendPool(); // the server took us out of the pool with the old socket
  socketOpened();
  if (wasDown && app.accounts) loadMe(); // signed out elsewhere while we were away, say
  wasDown = false;
  refreshRooms();
  return undefined;
}

// Failed tries before a start page that never reached the server plays offline by itself.
const TRIES_BEFORE_OFFLINE = 2;
let failedTries = 0;

export function onDown(retryMs) {
  wasDown = true;
  setConn(false, t('conn.offline'));
  dispatch({ type: 'net/down' });
  if (net.offline) return undefined;
  failedTries++;
  // The page came from the browser's copy (the service worker) with the server gone: the start
  // page offers what can be played here. A game's link keeps trying: its room is on the server.
  if (!app.everConnected && !app.joinReq && location.pathname === '/' && failedTries >= TRIES_BEFORE_OFFLINE) {
    net.setOffline(true);
    return undefined;
  }
  const offer = app.room ? {} : { spinner: true, action: t('conn.play_offline'), onAction: () => net.setOffline(true) };
  if (app.everConnected || app.joinReq || failedTries >= TRIES_BEFORE_OFFLINE)
    showBanner(t('conn.lost', { secs: Math.ceil(retryMs / 1000) }), offer);
  return undefined;
}

/** Playing with no server: what is offered, and the way back to the server. */
function onOfflineOpen() {
  setConn(false, t('conn.playing_offline'));
  dispatch({ type: 'net/offline' });
  showBanner(t('conn.no_server'), {
    spinner: false,
    action: t('conn.try_server'),
    onAction: async () => {
      // The game played here lives in this page's worker, which the server's link replaces.
      const playing = app.room && app.state?.status === 'playing';
      if (playing && !(await confirmDialog(t('conn.back_ends_game'), t('conn.go_back')))) return;
      failedTries = 0;
      dispatch({ type: 'want/server' });
      $('#banner').hidden = true;
      if (app.room) leaveToStart();
      net.setOffline(false);
    },
  });
  if (app.room) leaveToStart();
}

// Messages about the room we are in; after leaving, late ones are dropped.
const ROOM_NEWS = new Set(['chat', 'draw_offer', 'rematch_offer', 'draw_declined', 'presence']);

export function onMessage(msg) {
  if ((msg.type === 'analysis' || msg.type === 'analysis_history' || msg.type === 'error') && onAnalysisReply(msg))
    return undefined;
  if (ROOM_NEWS.has(msg.type) && !app.room) return;
  switch (msg.type) {
    case 'welcome':
      return onWelcome(msg);
    case 'joined':
      return onJoined(msg);
    case 'state':
      return onState(msg);
    case 'delta':
      return onDelta(msg);
    case 'chat':
      return onChat(msg);
    case 'draw_offer':
      return onDrawOffer(msg);
    case 'takeback_offer':
    case 'takeback_declined':
      return onTakebackNews(msg);
    case 'error':
      return onError(msg);
    case 'notice':
      return onNotice(msg);
    case 'pong':
      return onPong(msg);
    case 'presence':
      return onPresence(msg);
    case 'pool':
      return onPool(msg);
    case 'paired':
      return onPaired(msg);
    case 'ok':
      return dispatch({ type: 'got/ok', id: msg.id }); // the request went through; its state or chat follows
    // At one screen the answer was given here: nothing to tell.
    case 'rematch_offer':
      if (msg.from !== app.seat && !atOneScreen())
        toast(t('overlay.would_rematch', { side: sideName(msg.from) }), 'info');
      return undefined;
    case 'draw_declined':
      if (msg.from !== app.seat && !atOneScreen()) toast(t('conn.declined_draw', { side: sideName(msg.from) }), 'info');
      return undefined;
    default:
      return undefined; // unknown messages are ignored (PROTOCOL.md)
  }
}

// A delta of the state we hold; if it is not (we missed one, or hold another room's), the full
// state is asked for again.
function onDelta(msg) {
  if (!app.room) return undefined;
  const next = applyDelta(app.state, msg);
  if (next) return onState(next);
  send({ type: 'sync' });
  return undefined;
}

function onWelcome(msg) {
  const first = app.variants.length === 0;
  dispatch({ type: 'got/welcome', msg });
  document.body.classList.toggle('offline', app.offline);
  learnVariants(msg.variants);
  renderOpponentPicker();
  renderTimeControl(msg.clocks);
  if (msg.clocks) sendPing(); // a server with clocks answers pings: the first estimate of its time
  if (first && app.variants.length) renderVariantPicker();
  const chatMax = msg.limits?.chat_max_chars;
  if (Number.isInteger(chatMax) && chatMax > 0) $('#chat-input').maxLength = chatMax;
  const nameMax = msg.limits?.name_max_chars;
  if (Number.isInteger(nameMax) && nameMax > 0) {
    for (const el of [$('#create-name'), $('#join-name')]) el.maxLength = nameMax;
  }
}

function onJoined(msg) {
  const req = app.requests.get(msg.id);
  const room = normRoom(msg.room ?? req?.room);
  // A pool paired us and the server made the room with us seated: its `joined` asked for by no
  // request, the `paired` after it.
  const paired = !msg.id && !!app.pool;
  // Only the answer to our latest create, or news of the room we are in (or entering), or a pool's
  // room: anything else is about a room we have left, and must not pull us back in.
  if (!room || (req?.kind === 'create' ? msg.id !== app.creating : room !== app.room && !paired)) {
    dispatch({ type: 'got/reply', id: msg.id });
    return;
  }
  const fresh = room !== app.room;
  if (fresh) clearGameScreen();
  if (app.replaced) $('#banner').hidden = true;
  batch(() => joined(msg, req, room, fresh));
}

function joined(msg, req, room, fresh) {
  dispatch({
    type: 'got/joined',
    id: msg.id,
    room,
    fresh,
    create: req?.kind === 'create' ? req : null,
    seat: msg.seat ?? req?.seat ?? 'spectator',
    // One screen: this page holds both seats with one token, and plays for the side to move.
    oneScreen: !!msg.one_screen,
    url: msg.url ?? `/r/${room}`,
    token: msg.token ?? null,
    name: req?.name || saved.name || 'Guest',
  });
  loadInvitation(room, app.url);
  if (msg.token && app.seat !== 'spectator' && !app.offline) saved.saveSeat(room, msg.token, app.seat, app.oneScreen);
  if (req?.lostSeat) {
    toast(
      app.seat === 'spectator' ? t('conn.seat_lost') : t('conn.new_seat', { side: sideName(app.seat) }),
      'info',
      6000,
    );
  }
  // From the start screen or the analysis board, Back returns there. A game played offline has no
  // link: its room lives in this page alone.
  if (app.offline) {
    if (location.pathname !== '/') history.replaceState({}, '', '/');
  } else if (
    location.pathname === '/' ||
    location.pathname.startsWith('/analysis') ||
    location.pathname.startsWith('/@/') ||
    location.pathname.startsWith('/leaderboard')
  ) {
    history.pushState({ room }, '', app.url);
  } else if (location.pathname !== app.url) history.replaceState({ room }, '', app.url);
  showScreen('game');
  screen.dataAttrs();
  reportLag(); // the room hears our lag now, not at the next ping
}

function onNotice(msg) {
  if (msg.code === 'replaced') {
    // Another tab or device took this seat with our token: do not fight it for the seat, and
    // offer nothing that would only be refused (this connection is out of the room).
    dispatch({ type: 'got/replaced' });
    showReplaced();
    return;
  }
  if (msg.code === 'room_closed') {
    dispatch({ type: 'got/room_closed' });
    toast(errorText('room_closed', msg.message), 'error', 6000);
    return;
  }
  if (msg.message) toast(msg.message, 'info');
}

function onError(msg) {
  const req = app.requests.get(msg.id);
  dispatch({ type: 'got/error', id: msg.id, req, code: msg.code });
  const text = errorText(msg.code, msg.message);
  if (req?.kind === 'join') {
    if (msg.code === 'unknown_room') {
      saved.dropSeat(req.room);
      leaveToStart();
      history.replaceState({}, '', '/');
      toast(t('conn.no_game', { room: req.room }), 'error');
      return;
    }
    if (msg.code === 'bad_token') {
      // The seat is gone (given up before the game started, say). `any` takes a free seat if the
      // room still waits for players, and watches otherwise; onJoined says which.
      saved.dropSeat(req.room);
      sendJoin();
      return;
    }
    if (msg.code === 'too_many_spectators') {
      // This address already watches the room from many tabs: nothing to retry.
      leaveToStart();
      history.replaceState({}, '', '/');
      toast(text, 'error', 6000);
      return;
    }
    if (msg.code === 'rate_limited') {
      // Too many joins from this address (reloads, reconnects): the server takes one again in a
      // few seconds; try once more then, if we still want this room.
      toast(text, 'info');
      const again = app.joinReq;
      setTimeout(() => {
        if (again && app.joinReq === again) sendJoin();
      }, 5000);
      return;
    }
    if (msg.code === 'seat_taken' && req.seat !== 'spectator') {
      toast(t('conn.seats_taken'), 'info');
      sendJoin();
      return;
    }
    if (msg.code === 'rating_out_of_range' && req.seat !== 'spectator') {
      // A seek for other ratings (docs/PLAYERS.md, "Seeks"): the server's reason, and we watch.
      toast(
        t('conn.watching_because', { reason: `${text[0].toUpperCase()}${text.slice(1).replace(/\.$/, '')}` }),
        'error',
        8000,
      );
      sendJoin();
      return;
    }
  }
  if (req?.kind === 'act' && msg.code === 'stale_version') {
    hint(t('err.stale_version'));
    return;
  }
  toast(text, 'error');
}
