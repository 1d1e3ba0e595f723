// The start screen's New game form: the variant and its options, the side (seat_pick.js), the
// clock (time_control.js), whether it is rated and for which opponents' ratings (seeks.js), the
// computer and its strength, and the `create` it sends.

import { t } from './i18n.js';
import { $, h, humanize, markChecked, optionInput, toast, variantBlurb, variantName } from './ui.js';
import { app, dispatch, subscribe } from './store/store.js';
import { saved } from './store/saved.js';
import { aiLevelName, send, sidesOf } from './context.js';
import { clearGameScreen } from './game_state.js';
import { chosenClock } from './time_control.js';
import { chosenSeat, renderSidePicks, seatRequest, syncSeat } from './seat_pick.js';
import { ensurePlayer } from './account.js';
import { chosenRange, perfOfClock, renderRangeChoice } from './seeks.js';

for (const id of ['#variant-list', '#side-list']) $(id).addEventListener('change', () => markChecked($(id)));
$('#side-list').addEventListener('change', () => {
  syncSeat();
  updateOpponent();
});

export function renderVariantPicker() {
  const list = $('#variant-list');
  const kids = [h('legend', {}, t('html.game'))];
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
          h('span.variant-name', {}, variantName(v.id, app.variants)),
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
  const opts = (v.options ?? []).map((o) =>
    optionInput(o, `opt-${o.name}`, o.type === 'bool' ? o.default : (o.default ?? o.min ?? 0), { described: true }),
  );
  const details = h(
    'details.advanced',
    {},
    h('summary', {}, t('create.advanced')),
    h(
      'label.field',
      {},
      h('span', {}, t('create.position_json')),
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
  const remembered = saved.ai;
  const prevLevel = range.dataset.ready ? levels[Number(range.value)] : remembered.level;
  let idx = levels.indexOf(prevLevel);
  if (idx < 0) idx = Math.min(levels.length - 1, Math.max(0, levels.indexOf(3)));
  range.min = '0';
  range.max = String(levels.length - 1);
  range.value = String(idx);
  range.dataset.ready = '1';
  if (!$('#vs-ai').dataset.ready) {
    $('#vs-ai').checked = !!remembered.on;
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
  range.setAttribute('aria-valuetext', t('create.level_text', { name: aiLevelName(level), level }));
  $('#create-btn').textContent = both
    ? t('create.start_here')
    : on && offered
      ? t('create.play_computer')
      : t('html.create_game');
  if (!both) saved.ai = { on, level };
  updateRated();
}

// Rated: between two people with a clock (the server refuses any other). Shown on a server with
// players; the box says why it cannot be ticked.
function ratedBlocker() {
  const seat = chosenSeat();
  if (seat === 'both') return t('create.rated_not_both');
  if ($('#vs-ai').checked && aiOffered(selectedVariant()?.id)) return t('create.rated_not_ai');
  if (($('#clock-picks input:checked')?.value ?? 'none') === 'none') return t('create.rated_needs_clock');
  return null;
}

function updateRated() {
  const box = $('#rated-box');
  box.hidden = app.accounts !== true || app.offline;
  const why = ratedBlocker();
  const input = $('#rated');
  input.disabled = !!why;
  if (why) input.checked = false;
  box.classList.toggle('disabled', !!why);
  $('#rated-note').textContent = why ?? (input.checked ? t('create.rated_on') : t('create.rated_off'));
  renderRangeChoice(formPerf(), !box.hidden && !why && input.checked);
}

/** The perf the form's game would be rated in (its variant and clock), or null. */
function formPerf() {
  return perfOfClock(selectedVariant()?.id, chosenClock().clock);
}

$('#clock-picks').addEventListener('change', updateRated);
$('#rated').addEventListener('change', updateRated);
for (const id of ['#clock-minutes', '#clock-increment', '#rated-min', '#rated-max'])
  $(id).addEventListener('input', updateRated);
$('#rated-range').addEventListener('change', updateRated);
subscribe((actions) => {
  if (actions.some((a) => a.type === 'got/me' || a.type === 'got/welcome')) updateRated();
});

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
        toast(t('create.whole_number', { name: humanize(input.name) }), 'error');
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
  if ($('#rated').checked && !$('#rated-box').hidden && !ratedBlocker()) {
    msg.rated = true;
    const { range, error: bad, input: at } = chosenRange(perfOfClock(v.id, clock));
    if (bad) {
      toast(bad, 'error');
      at.focus();
      return;
    }
    if (range) msg.range = range;
  }
  if (names) msg.names = names;
  const vsAi = $('#vs-ai').checked && aiOffered(v.id) && seat !== 'both';
  if (clock) msg.clock = clock;
  if (vsAi) msg.opponent = { ai: app.ai.levels[Number($('#ai-level').value)] ?? app.ai.levels[0] };
  const posText = $('#create-position')?.value.trim();
  if (posText) {
    try {
      msg.position = JSON.parse(posText);
    } catch {
      toast(t('create.bad_json'), 'error');
      return;
    }
  }
  // Only a player may create a rated game: a guest is made first if this browser has none.
  if (msg.rated && !app.me) ensurePlayer().then((ok) => ok && sendCreate(msg));
  else sendCreate(msg);
});

function sendCreate(msg) {
  clearGameScreen();
  dispatch({ type: 'want/create' });
  const id = send(msg, { kind: 'create', name: msg.name, ai: msg.opponent?.ai ?? null });
  if (id !== null) dispatch({ type: 'sent/create', id });
}
