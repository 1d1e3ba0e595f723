// The start screen and routes: choosing a game and a side, the computer, open rooms, /r/{room}.

import { $, h, humanize, icon, markChecked, sideChip, sideName, toast, variantBlurb, variantName } from './ui.js';
import { app, decodeRoom, normRoom, store } from './state.js';
import { sendJoin } from './connection.js';
import { aiLevelName, net, send, sidesOf } from './context.js';
import { sendLeave } from './controls.js';
import { resetGameView } from './game_state.js';
import { screen, showScreen } from './screen.js';
import { apiFetch } from './net.js';
import { chosenClock, controlWords } from './time_control.js';
import { openAnalysis } from './editor.js';
import { chosenSeat, renderSidePicks, seatRequest, syncSeat } from './seat_pick.js';

export function leaveToStart() {
  app.room = null;
  app.joinReq = null;
  app.creating = null;
  resetGameView();
  screen.dataAttrs();
  showScreen('start');
  document.title = 'Bomb Checkers';
  refreshRooms();
}

for (const id of ['#variant-list', '#side-list']) $(id).addEventListener('change', () => markChecked($(id)));
$('#side-list').addEventListener('change', () => {
  syncSeat();
  updateOpponent();
});

export function renderVariantPicker() {
  const list = $('#variant-list');
  const kids = [h('legend', {}, 'Game')];
  app.variants.forEach((v, i) => {
    const input = h('input', { type: 'radio', name: 'variant', value: v.id, checked: i === 0 });
    input.addEventListener('change', renderVariantDetails);
    kids.push(
      h(
        'label.variant',
        {},
        input,
        h(
          'span.variant-body',
          {},
          h('span.variant-name', {}, v.name ?? variantName(v.id)),
          h('span.variant-blurb', {}, variantBlurb(v.id)),
        ),
      ),
    );
  });
  list.replaceChildren(...kids);
  markChecked(list);
  $('#create-btn').disabled = false;
  renderVariantDetails();
}

function selectedVariant() {
  const id = $('#create-form').querySelector('input[name=variant]:checked')?.value;
  return app.variants.find((v) => v.id === id) ?? app.variants[0];
}

function renderVariantDetails() {
  const v = selectedVariant();
  if (!v) return;
  // Options, as inputs built from their specs.
  const opts = (v.options ?? []).map((o) => {
    const id = `opt-${o.name}`;
    const help = o.description ?? o.help ?? '';
    if (o.type === 'bool') {
      return h(
        'label.check',
        { title: help },
        h('input', { type: 'checkbox', id, name: o.name, checked: !!o.default, dataset: { type: 'bool' } }),
        h('span', {}, humanize(o.name)),
        help ? h('small.muted', {}, help) : null,
      );
    }
    return h(
      'label.field.num',
      { title: help },
      h('span', {}, humanize(o.name)),
      h('input', {
        type: 'number',
        id,
        name: o.name,
        min: o.min,
        max: o.max,
        step: 1,
        value: o.default ?? o.min ?? 0,
        inputmode: 'numeric',
        dataset: { type: 'int' },
      }),
      help ? h('small.muted', {}, help) : null,
    );
  });
  const details = h(
    'details.advanced',
    {},
    h('summary', {}, 'Start position (advanced)'),
    h(
      'label.field',
      {},
      h('span', {}, 'Position as JSON, see PROTOCOL.md (leave empty for the normal start)'),
      h('textarea', {
        id: 'create-position',
        name: 'position',
        rows: 3,
        spellcheck: 'false',
        placeholder: '{"pieces":[…],"turn":"fire"}',
      }),
    ),
  );
  $('#options').replaceChildren(...(opts.length ? [h('div.options-grid', {}, opts)] : []), details);
  renderSidePicks(sidesOf(v.id));
  updateOpponent();
}

// The computer opponent: a switch and a strength slider. The server seats the computer in the
// other seat; the page then plays as against anyone.

function aiOffered(variant) {
  const v = app.variants.find((x) => x.id === variant);
  return v?.ai !== false;
}

export function renderOpponentPicker() {
  const { levels } = app.ai;
  const range = $('#ai-level');
  const saved = store.ai;
  const prevLevel = range.dataset.ready ? levels[Number(range.value)] : saved.level;
  let idx = levels.indexOf(prevLevel);
  if (idx < 0) idx = Math.min(levels.length - 1, Math.max(0, levels.indexOf(3)));
  range.min = '0';
  range.max = String(levels.length - 1);
  range.value = String(idx);
  range.dataset.ready = '1';
  if (!$('#vs-ai').dataset.ready) {
    $('#vs-ai').checked = !!saved.on;
    $('#vs-ai').dataset.ready = '1';
  }
  $('#ai-min').textContent = aiLevelName(levels[0]);
  $('#ai-max').textContent = aiLevelName(levels[levels.length - 1]);
  updateOpponent();
}

function updateOpponent() {
  const { levels } = app.ai;
  // Both sides on this screen leave no seat for the computer: its switch is off and says why, and
  // comes back as it was when a side is chosen again.
  const both = chosenSeat() === 'both';
  const sw = $('#vs-ai');
  if (both && !sw.disabled) {
    sw.dataset.was = sw.checked ? '1' : '';
    sw.checked = false;
  } else if (!both && sw.disabled) {
    sw.checked = sw.dataset.was === '1';
  }
  sw.disabled = both;
  $('#opponent-note').hidden = !both;
  const on = sw.checked;
  const offered = aiOffered(selectedVariant()?.id);
  $('#opponent').hidden = !offered;
  const range = $('#ai-level');
  const level = levels[Number(range.value)] ?? levels[0];
  $('#ai-level-box').hidden = !on;
  $('#ai-level-name').textContent = aiLevelName(level);
  $('#ai-level-num').textContent = `${level}`;
  range.setAttribute('aria-valuetext', `${aiLevelName(level)} (level ${level})`);
  $('#create-btn').textContent = both ? 'Start the game here' : on && offered ? 'Play the computer' : 'Create game';
  if (!both) store.ai = { on, level };
}

$('#vs-ai').addEventListener('change', updateOpponent);
$('#ai-level').addEventListener('input', updateOpponent);

$('#create-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const v = selectedVariant();
  if (!v) return;
  const form = $('#create-form');
  const options = {};
  for (const input of form.querySelectorAll('#options input[data-type]')) {
    if (input.dataset.type === 'bool') options[input.name] = input.checked;
    else {
      const n = Number.parseInt(input.value, 10);
      if (!Number.isFinite(n)) {
        toast(`${humanize(input.name)} needs a whole number.`, 'error');
        input.focus();
        return;
      }
      options[input.name] = n;
    }
  }
  const { clock, error, input } = chosenClock();
  if (error) {
    toast(error, 'error');
    input.focus();
    return;
  }
  const { seat, name, names } = seatRequest();
  const msg = { type: 'create', variant: v.id, options, name, seat };
  if (names) msg.names = names;
  const vsAi = $('#vs-ai').checked && aiOffered(v.id) && seat !== 'both';
  if (clock) msg.clock = clock;
  if (vsAi) msg.opponent = { ai: app.ai.levels[Number($('#ai-level').value)] ?? app.ai.levels[0] };
  const posText = $('#create-position')?.value.trim();
  if (posText) {
    try {
      msg.position = JSON.parse(posText);
    } catch {
      toast('The start position is not valid JSON.', 'error');
      return;
    }
  }
  resetGameView();
  const id = send(msg, { kind: 'create', name, ai: msg.opponent?.ai ?? null });
  if (id !== null) {
    app.joinReq = null;
    app.creating = id;
  }
});

$('#join-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const raw = $('#join-code').value.trim();
  const m = raw.match(/\/r\/([^/?#\s]+)/);
  const room = m ? decodeRoom(m[1]) : normRoom(raw.replace(/[^A-Za-z0-9_-]/g, ''));
  if (room === null) {
    toast('That link is damaged (a stray “%”): copy the whole link again, or type just the room code.', 'error', 6000);
    return;
  }
  if (!room) {
    toast('Paste a game link or type its room code.', 'error');
    return;
  }
  history.pushState({ room }, '', `/r/${encodeURIComponent(room)}`);
  openRoom(room);
});

async function fetchRooms() {
  const res = await apiFetch('/api/rooms', { cache: 'no-store' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const data = await res.json();
  return Array.isArray(data) ? data : (data.rooms ?? []);
}

/** Seats from /api/rooms, whatever their shape: [{side, name}] or {side: name|{name}|null}. */
function seatList(room) {
  const sides = sidesOf(room.variant);
  const seats = room.seats ?? room.players ?? {};
  return sides.map((side) => {
    let v = Array.isArray(seats) ? seats.find((x) => x && (x.side === side || x.seat === side)) : seats[side];
    if (v && typeof v === 'object') v = v.name ?? (v.taken === false ? null : '');
    return { side, name: v === undefined || v === null || v === false ? null : String(v) };
  });
}

let roomsTimer = 0;
export async function refreshRooms() {
  clearTimeout(roomsTimer);
  if ($('#start').hidden) return;
  roomsTimer = setTimeout(refreshRooms, 5000);
  const list = $('#room-list');
  let rooms;
  try {
    rooms = await fetchRooms();
  } catch {
    list.replaceChildren(h('li.muted', {}, 'The list of games is not available right now.'));
    return;
  }
  const live = rooms.filter((r) => r.status !== 'finished').slice(0, 50);
  if (!live.length) {
    list.replaceChildren(h('li.muted', {}, 'No games right now. Start one!'));
    return;
  }
  list.replaceChildren(
    ...live.map((r) => {
      const seats = seatList(r);
      const free = seats.some((x) => x.name === null) && !r.one_screen;
      return h(
        'li.room',
        { dataset: { room: r.id } },
        h(
          'div.room-main',
          {},
          h('span.room-variant', {}, variantName(r.variant, app.variants)),
          r.options_text ? h('span.room-options', {}, r.options_text) : null,
          h(
            'span.room-players',
            {},
            ...seats.flatMap((x, i) => [
              i ? h('span.vs', {}, 'vs') : null,
              sideChip(x.side),
              h('span', {}, x.name || (x.name === '' ? sideName(x.side) : '—')),
            ]),
          ),
        ),
        h(
          'div.room-meta',
          {},
          h(`span.pill.${r.status ?? 'playing'}`, {}, r.status === 'waiting' ? 'open' : (r.status ?? '')),
          r.one_screen ? h('span.pill.one-screen', { title: 'Two people play at one screen' }, 'one screen') : null,
          r.clock
            ? h(
                'span.pill.clock',
                { title: controlWords(r.clock) },
                icon('clock'),
                r.clock,
                h('span.sr-only', {}, ` (${controlWords(r.clock)})`),
              )
            : null,
          h('span.muted.watchers', {}, icon('eye'), ` ${r.spectators ?? 0}`, h('span.sr-only', {}, ' watching')),
          free
            ? h(
                'button.btn.small.primary',
                { type: 'button', 'aria-label': `Play in game ${r.id}`, onclick: () => goRoom(r.id, 'any') },
                'Play',
              )
            : null,
          h(
            'button.btn.small',
            { type: 'button', 'aria-label': `Watch game ${r.id}`, onclick: () => goRoom(r.id, 'spectator') },
            'Watch',
          ),
        ),
      );
    }),
  );
}

function goRoom(id, seat) {
  const room = normRoom(id);
  history.pushState({ room }, '', `/r/${encodeURIComponent(room)}`);
  // A seat this browser holds there is taken back (as a link would), not left empty while we watch.
  const saved = store.seat(room);
  if (saved) {
    enterRoom(room, { seat: saved.seat, token: saved.token, name: store.name });
    return;
  }
  const name = $('#create-name').value.trim() || store.name || 'Guest';
  enterRoom(room, { seat, name });
}

$('#rooms-refresh').addEventListener('click', refreshRooms);

function enterRoom(room, { seat, name, token = null }) {
  if (app.room !== room) resetGameView();
  app.room = room;
  app.joinReq = { room, seat, name: name || store.name || 'Guest', token };
  showScreen('game');
  screen.render();
  if (net.connected) sendJoin();
}

/** /r/{room}: resume our seat if this browser has one, else ask whether to play or watch. */
async function openRoom(room) {
  const saved = store.seat(room);
  if (saved) {
    enterRoom(room, { seat: saved.seat, token: saved.token, name: store.name });
    return;
  }
  showScreen('start');
  const dlg = $('#join-dialog');
  $('#join-title').textContent = `Join game ${room}`;
  $('#join-name').value = store.name;
  $('#join-info').textContent = 'Play if a seat is free, or watch.';
  $('#join-play').hidden = false;
  const choose = (seat) => {
    const name = $('#join-name').value.trim() || 'Guest';
    store.name = name;
    dlg.close();
    enterRoom(room, { seat, name });
  };
  $('#join-dialog-form').onsubmit = (e) => {
    e.preventDefault();
    choose('any');
  };
  $('#join-watch').onclick = () => choose('spectator');
  const cancel = () => {
    dlg.close();
    history.pushState({}, '', '/');
    leaveToStart();
  };
  $('#join-cancel').onclick = cancel;
  // Escape means Back too: closed alone, the dialog would leave a room page with nothing on it.
  dlg.oncancel = (e) => {
    e.preventDefault();
    cancel();
  };
  if (!dlg.open) dlg.showModal();
  try {
    const info = (await fetchRooms()).find((r) => normRoom(r.id) === room);
    if (!info) return;
    const seats = seatList(info);
    const waiting = seats.find((x) => x.name);
    const free = seats.some((x) => x.name === null) && !info.one_screen;
    // The game as the server words it: its variant, then its options that are not the default.
    const game = `${variantName(info.variant, app.variants)}${info.options_text ? ` (${info.options_text})` : ''}`;
    const names = seats.map((x) => x.name || sideName(x.side)).join(' and ');
    $('#join-info').textContent = info.one_screen
      ? `${game}: ${names} are playing at one screen, so you can watch.`
      : free
        ? `${waiting?.name ? `${waiting.name} is` : 'Someone is'} waiting for an opponent: ${game}.`
        : `${game}: both seats are taken, so you can watch.`;
    $('#join-play').hidden = !free;
  } catch {
    // the dialog works without the details
  }
}

$('#open-analysis').addEventListener('click', (e) => {
  if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
  e.preventDefault();
  history.pushState({}, '', '/analysis');
  route();
});

export function route() {
  if (/^\/analysis\/?$/.test(location.pathname)) {
    if (app.room) {
      sendLeave();
      leaveToStart();
    }
    openAnalysis();
    return;
  }
  const m = location.pathname.match(/^\/r\/([^/]+)\/?$/);
  const room = m ? decodeRoom(m[1]) : null;
  if (m && room === null) {
    history.replaceState({}, '', '/');
    toast('That link is damaged: ask for it again, or type the room code.', 'error', 6000);
  }
  if (room) {
    if (room !== app.room) openRoom(room);
    return;
  }
  if (app.room) {
    sendLeave();
    leaveToStart();
  } else {
    showScreen('start');
    refreshRooms();
  }
}

window.addEventListener('popstate', route);
