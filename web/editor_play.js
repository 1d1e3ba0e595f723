// From the analysis board to a game and back: "Play from here" makes a room that starts from the
// position shown (against a person, who gets the link, or the computer, or two people at this
// screen), and a finished game's
// "Analyse this position" opens the board on the position the game screen shows.

import { t } from './i18n.js';
import { $, h, markChecked, sideChip, sideName } from './ui.js';
import { app, dispatch } from './store/store.js';
import { saved } from './store/saved.js';
import { send } from './context.js';
import { clearGameScreen } from './game_state.js';
import { aiLevelName } from './context.js';
import { viewState } from './replay_view.js';
import { analysisLink, currentPos, ed, edSides } from './editor_state.js';
import { fromState, toWire } from './position_text.js';

/** The seat and opponent pickers, for the variant on the board. */
export function renderPlay() {
  const box = $('#ed-seat');
  const sides = edSides();
  const was = box.querySelector('input:checked')?.value;
  const pick = [...sides, 'random'].includes(was) ? was : sides[0];
  box.replaceChildren(
    h('legend', {}, t('html.play_as')),
    ...[...sides, 'random'].map((s) =>
      h(
        'label.side-pick',
        {},
        h('input', { type: 'radio', name: 'ed-seat', value: s, checked: s === pick }),
        s === 'random' ? h('span.chip.random', { 'aria-hidden': 'true' }, '?') : sideChip(s),
        h('span', {}, s === 'random' ? t('seat.random') : sideName(s)),
      ),
    ),
  );
  markChecked(box);
  const select = $('#ed-opponent');
  const levels = app.ai.levels;
  const chosen = select.value || (saved.ai.on ? `ai:${saved.ai.level}` : 'person');
  select.replaceChildren(
    h('option', { value: 'person' }, t('ed.vs_person')),
    h('option', { value: 'screen' }, t('ed.vs_screen')),
    ...levels.map((l) => h('option', { value: `ai:${l}` }, t('ed.vs_computer', { name: aiLevelName(l), level: l }))),
  );
  select.value = [...select.options].some((o) => o.value === chosen) ? chosen : 'person';
}

$('#ed-seat').addEventListener('change', () => markChecked($('#ed-seat')));

$('#ed-play').addEventListener('click', () => {
  const pos = currentPos();
  if (!pos) return;
  const name = saved.name || t('html.player');
  const seat = $('#ed-seat').querySelector('input:checked')?.value ?? 'random';
  const msg = { type: 'create', variant: ed.variant, options: { ...ed.options }, name, seat, position: toWire(pos) };
  const opponent = $('#ed-opponent').value;
  if (opponent.startsWith('ai:')) msg.opponent = { ai: Number(opponent.slice(3)) };
  if (opponent === 'screen') {
    const [a, b] = edSides();
    msg.seat = 'both';
    msg.names = { [a]: name, [b]: saved.name2 || t('seat.player_n', { n: 2 }) };
  }
  clearGameScreen();
  dispatch({ type: 'want/create' });
  // The game screen comes with the server's `joined` (connection.js), as for the start screen's
  // form; a refusal (a position the rules do not allow) comes back as a message.
  const id = send(msg, { kind: 'create', name, ai: msg.opponent?.ai ?? null });
  if (id !== null) dispatch({ type: 'sent/create', id });
});

// ---- "Analyse this position" on the game screen -----------------------------------------------

const link = $('#analyse-position');

/** Shown once a game is over, for the position on its board (a replay's too). */
function updateAnalyseLink() {
  const s = app.state;
  const shown = s?.status === 'finished' ? viewState() : null;
  link.hidden = !shown?.board;
  if (!shown?.board) return;
  const options = { ...(s.options ?? {}) };
  delete options.rules;
  link.href = analysisLink(fromState({ ...shown, variant: s.variant }), options);
}

new MutationObserver(updateAnalyseLink).observe($('#board'), {
  attributes: true,
  attributeFilter: ['data-status', 'data-version', 'data-replay-version', 'data-replay-game', 'data-game'],
});

link.addEventListener('click', (e) => {
  if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return; // a new tab opens it as it is
  e.preventDefault();
  updateAnalyseLink();
  history.pushState({}, '', link.getAttribute('href'));
  // The router (lobby.js) follows the address as it does Back and Forward.
  window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
});
