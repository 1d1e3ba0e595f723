// The start screen's "Play as": one side, Random, or both sides on this screen (two people at one
// computer, PROTOCOL.md "One screen"), which asks for a name for each side instead of "Your name".

import { t } from './i18n.js';
import { $, h, markChecked, sideChip, sideName } from './ui.js';
import { saved } from './store/saved.js';

/** The seat chosen: a side, 'random' or 'both'. */
export function chosenSeat() {
  return $('#side-list').querySelector('input[name=seat]:checked')?.value ?? 'random';
}

/** The picks for a variant's two sides; "both" stays chosen when the variant changes. */
export function renderSidePicks(sides) {
  const keep = chosenSeat() === 'both';
  const kids = [h('legend', {}, t('html.play_as'))];
  for (const s of [...sides, 'random']) {
    kids.push(
      h(
        'label.side-pick',
        {},
        h('input', { type: 'radio', name: 'seat', value: s, checked: keep ? false : s === sides[0] }),
        s === 'random' ? h('span.chip.random', { 'aria-hidden': 'true' }, '?') : sideChip(s),
        h('span', {}, s === 'random' ? t('seat.random') : sideName(s)),
      ),
    );
  }
  kids.push(
    h(
      'label.side-pick.both-pick',
      { title: t('seat.both_title') },
      h('input', { type: 'radio', name: 'seat', value: 'both', checked: keep }),
      h('span.chip-pair', { 'aria-hidden': 'true' }, sideChip(sides[0]), sideChip(sides[1])),
      h('span', {}, t('seat.both')),
    ),
  );
  $('#side-list').replaceChildren(...kids);
  markChecked($('#side-list'));
  renderNames(sides);
  syncSeat();
}

/** A name for each side, kept while the variant changes (the fields follow its sides' names). */
function renderNames(sides) {
  const box = $('#both-names');
  const typed = [...box.querySelectorAll('input')].map((i) => i.value);
  const values = typed.length === 2 ? typed : [$('#create-name').value.trim() || saved.name, saved.name2];
  const max = $('#create-name').maxLength;
  box.replaceChildren(
    h('legend', {}, t('seat.players')),
    ...sides.map((side, i) =>
      h(
        'label.field',
        {},
        h('span', {}, sideChip(side), ` ${sideName(side)}`),
        h('input', {
          id: `both-name-${i}`,
          value: values[i] ?? '',
          placeholder: t('seat.player_n', { n: i + 1 }),
          maxlength: max > 0 ? max : null,
          autocomplete: 'off',
          dataset: { side },
        }),
      ),
    ),
  );
}

/** Both sides here: a name for each instead of "Your name". */
export function syncSeat() {
  const both = chosenSeat() === 'both';
  $('#both-names').hidden = !both;
  $('#create-name-row').hidden = both;
}

/**
 * The seat part of `create`: {seat, name} and, at one screen, `names` by side (an empty field is
 * "Player 1" or "Player 2"). Remembers the names typed for next time.
 */
export function seatRequest() {
  const seat = chosenSeat();
  if (seat !== 'both') {
    const name = $('#create-name').value.trim() || t('html.player');
    saved.name = name;
    return { seat, name };
  }
  const inputs = [...$('#both-names').querySelectorAll('input')];
  const typed = inputs.map((i) => i.value.trim());
  const names = {};
  inputs.forEach((input, i) => {
    names[input.dataset.side] = typed[i] || t('seat.player_n', { n: i + 1 });
  });
  if (typed[0]) saved.name = typed[0];
  saved.name2 = typed[1];
  return { seat, name: names[inputs[0].dataset.side], names };
}
