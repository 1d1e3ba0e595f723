// Time controls: their names ("5+3", "3d") in words, and the create form's choice of one (none by
// default, the server's presets, a custom Fischer clock, or days per move for correspondence),
// built from the `clocks` of the server's welcome and sent as `create`'s `clock`.

import { t } from './i18n.js';
import { $, h, markChecked } from './ui.js';

// ---- words ----------------------------------------------------------------------------------

const num = (x) => String(Math.round(x * 100) / 100);

/** A Fischer clock's name as the server writes it: "5+3" (whole minutes), else "90s+2". */
export function fischerName(base, increment) {
  return base % 60 === 0 ? `${base / 60}+${num(increment)}` : `${num(base)}s+${num(increment)}`;
}

/** A control's name in words, for a tooltip or a screen reader: "5 minutes + 3 s a move". */
export function controlWords(control) {
  const c = String(control ?? '');
  let m = /^(\d+(?:\.\d+)?)d$/.exec(c);
  if (m) return t('tc.days', { count: Number(m[1]) });
  m = /^(\d+(?:\.\d+)?)(s?)\+(\d+(?:\.\d+)?)$/.exec(c);
  if (!m) return c ? t('tc.control', { c }) : t('tc.none');
  const base = m[2] ? `${m[1]} s` : t('tc.minutes', { count: Number(m[1]) });
  return Number(m[3]) ? t('tc.increment', { base, inc: m[3] }) : t('tc.no_increment', { base });
}

// ---- the create form's choice ---------------------------------------------------------------

let limits = { maxBase: 10800, maxIncrement: 180 };

/** Builds the choice from the welcome's `clocks`; hidden when the server offers no clocks. */
export function renderTimeControl(clocks) {
  const box = $('#time-control');
  if (!clocks || typeof clocks !== 'object') {
    box.hidden = true;
    return;
  }
  limits = { maxBase: clocks.max_base ?? 10800, maxIncrement: clocks.max_increment ?? 180 };
  const before = box.querySelector('input[name=clock]:checked')?.value ?? 'none';
  const pick = (value, text, title) =>
    h(
      'label.clock-pick',
      { title },
      h('input', { type: 'radio', name: 'clock', value, checked: value === before }),
      h('span', {}, text),
    );
  const presets = (Array.isArray(clocks.presets) ? clocks.presets : [])
    .filter((p) => Array.isArray(p) && p.length === 2)
    .map(([b, i]) => {
      const name = fischerName(b, i);
      return pick(name, name, controlWords(name));
    });
  const days = Array.isArray(clocks.days) ? clocks.days : [];
  $('#clock-picks').replaceChildren(
    pick('none', t('tc.none'), t('tc.none_title')),
    ...presets,
    pick('custom', t('tc.custom'), t('tc.custom_title')),
    days.length ? pick('days', t('tc.days_pick'), t('tc.days_title')) : null,
  );
  if (!$('#clock-picks input:checked')) $('#clock-picks input[value=none]').checked = true;
  $('#clock-increment').max = String(limits.maxIncrement);
  const sel = $('#clock-days-n');
  const keep = sel.value;
  sel.replaceChildren(...days.map((d) => h('option', { value: d }, `${d} ${d === 1 ? 'day' : 'days'}`)));
  sel.value = days.map(String).includes(keep) ? keep : String(days.includes(3) ? 3 : (days[0] ?? ''));
  box.hidden = false;
  showChoice();
}

function showChoice() {
  const v = $('#clock-picks input:checked')?.value ?? 'none';
  markChecked($('#clock-picks'));
  $('#clock-custom').hidden = v !== 'custom';
  $('#clock-days').hidden = v !== 'days';
}
$('#clock-picks').addEventListener('change', showChoice);

/** "5", "1.5" (minutes) or "0:30", "1:30" (minutes:seconds): the seconds, or NaN. */
export function parseMinutes(text) {
  const t = String(text).trim().replace(',', '.');
  const m = /^(\d+):([0-5]?\d(?:\.\d+)?)$/.exec(t);
  if (m) return Number(m[1]) * 60 + Number(m[2]);
  return /^\d*\.?\d+$/.test(t) ? Number(t) * 60 : NaN;
}

/**
 * The `clock` for `create`: {clock} (null: untimed), or {error, input} when the custom fields
 * are not a clock the server takes.
 */
export function chosenClock() {
  if ($('#time-control').hidden) return { clock: null };
  const v = $('#clock-picks input:checked')?.value ?? 'none';
  if (v === 'none') return { clock: null };
  if (v === 'days') return { clock: { days: Number($('#clock-days-n').value) } };
  if (v === 'custom') {
    const base = Math.round(parseMinutes($('#clock-minutes').value) * 1000) / 1000;
    if (!(base >= 1 && base <= limits.maxBase)) {
      return {
        error: t('tc.bad_base', { hours: limits.maxBase / 3600 }),
        input: $('#clock-minutes'),
      };
    }
    const inc = Number(String($('#clock-increment').value).trim().replace(',', '.') || 0);
    if (!(inc >= 0 && inc <= limits.maxIncrement)) {
      return { error: t('tc.bad_increment', { max: limits.maxIncrement }), input: $('#clock-increment') };
    }
    return { clock: { base, increment: inc } };
  }
  const m = /^(\d+(?:\.\d+)?)(s?)\+(\d+(?:\.\d+)?)$/.exec(v);
  if (!m) return { clock: null };
  return { clock: { base: Number(m[1]) * (m[2] ? 1 : 60), increment: Number(m[3]) } };
}
