// Takebacks: a player asks to take back their last turn, and the opponent accepts or declines
// (the computer always accepts, at once). It looks and behaves like a draw offer: a button by
// Offer draw and Resign, and for the opponent a prompt with Accept and Decline. The server says
// who asks in every state (`takeback_offer`), and a takeback is a state of its own: the position
// before the proposer's last turn (and the answer to it), with the proposer to move, at a new
// version. This tab's move list and positions then forget the undone turns, as the server's record
// does, and a premove is dropped. At one screen a takeback is granted at once: the last turn (or
// the one under way) is undone, whoever played it.

import { t } from './i18n.js';
import { $, h, sideName, toast } from './ui.js';
import { app } from './store/store.js';
import { isTakeback } from './store/game.js';
import { atOneScreen, board, isPlayer, send, sidesOf } from './context.js';
import { screen } from './screen.js';

const tb = {
  asked: null, // the id of our `takeback` request while it is on its way
  answered: null, // the id of our `answer_takeback` while it is on its way
  declined: null, // {from, key}: our proposal was declined, at the position `key`
};

/** "game:version" of a state: a notice is about the position it was given at. */
const keyOf = (s) => `${s?.game ?? app.gameNo}:${s?.version}`;

/** Whether a request of ours is still unanswered (an `ok` or an `error` takes it out). */
const waiting = (id) => id !== null && app.requests.has(id);

function opponentOf(s) {
  const sides = sidesOf(s.variant);
  return sides[0] === app.seat ? sides[1] : sides[0];
}

/** Whether the opponent is the computer, which grants a takeback at once. */
function vsComputer(s) {
  const p = s.players?.[opponentOf(s)];
  return !!(p && (p.ai ?? p.computer));
}

/** Whether we have played a turn in this game (else the server would say no_takeback); at one
 *  screen, whether anyone has. */
function havePlayed(s) {
  if (atOneScreen()) return app.movesPartial || !!s.last || app.moves.length > 0;
  return app.movesPartial || s.last?.side === app.seat || app.moves.some((m) => m.side === app.seat);
}

// ---- the button and the prompt -----------------------------------------------------------------

/** After a render: the Take back button, and the prompt (the opponent's proposal) or the notice. */
export function renderTakeback(s) {
  const btn = $('#takeback');
  const box = $('#takeback-offer');
  // A server without takebacks says nothing of them in its states: no button then.
  const playing = s.status === 'playing' && 'takeback_offer' in s;
  const offer = playing ? (s.takeback_offer ?? null) : null;
  const mine = offer !== null && offer === app.seat;
  const declined = playing && tb.declined?.key === keyOf(s) ? tb.declined : null;
  btn.hidden = !(isPlayer() && playing);
  if (!btn.hidden) {
    const asking = waiting(tb.asked);
    const atOnce = vsComputer(s) || atOneScreen();
    const plain = !mine && !asking;
    const words = mine
      ? t('tb.proposed')
      : asking
        ? atOnce
          ? t('tb.taking_back')
          : t('tb.proposing')
        : t('html.take_back');
    if (btn.textContent !== (plain ? `↶ ${words}` : words)) {
      btn.replaceChildren(...(plain ? [h('span', { 'aria-hidden': 'true' }, '↶ '), words] : [words]));
    }
    btn.disabled = mine || asking || app.replaced || (offer !== null && !mine) || !!declined || !havePlayed(s);
    btn.title = declined
      ? t('tb.ask_again_later')
      : !havePlayed(s)
        ? atOneScreen()
          ? t('tb.no_move_yet')
          : t('tb.you_no_move_yet')
        : atOneScreen()
          ? t('tb.take_back_last')
          : vsComputer(s)
            ? t('tb.take_back_vs_computer')
            : t('tb.ask_opponent');
  }
  // The prompt for the opponent (and what spectators see); the notice of a decline for us.
  if (offer !== null && !mine && !waiting(tb.answered)) {
    box.hidden = false;
    box.classList.remove('declined');
    $('#takeback-offer-text').textContent = t('tb.asks', { side: sideName(offer) });
    $('#takeback-buttons').hidden = !isPlayer();
    $('#takeback-accept').disabled = app.replaced;
    $('#takeback-decline').disabled = app.replaced;
  } else if (declined && isPlayer()) {
    box.hidden = false;
    box.classList.add('declined');
    $('#takeback-offer-text').textContent = t('tb.declined', { side: sideName(declined.from) });
    $('#takeback-buttons').hidden = true;
  } else {
    box.hidden = true;
  }
}

$('#takeback').addEventListener('click', () => {
  if (waiting(tb.asked) || app.replaced) return;
  const id = send({ type: 'takeback' }, { kind: 'takeback' });
  if (id === null) return;
  tb.asked = id;
  tb.declined = null;
  screen.render();
});

function answer(accept) {
  const id = send({ type: 'answer_takeback', accept }, { kind: 'answer_takeback' });
  if (id === null) return;
  tb.answered = id;
  screen.render();
}
$('#takeback-accept').addEventListener('click', () => answer(true));
$('#takeback-decline').addEventListener('click', () => answer(false));

// ---- the server's news ---------------------------------------------------------------------------

/** `takeback_offer` and `takeback_declined` (a state saying the same follows the offer). */
export function onTakebackNews(msg) {
  if (!app.room) return; // about a room we have left
  if (msg.type === 'takeback_offer') {
    if (msg.from !== app.seat && isPlayer()) toast(t('tb.asks', { side: sideName(msg.from) }), 'info');
  } else if (msg.type === 'takeback_declined') {
    if (isPlayer() && msg.from !== app.seat) {
      tb.declined = { from: msg.from, key: keyOf(app.state) };
      toast(t('tb.declined', { side: sideName(msg.from) }), 'info');
    }
  }
  screen.render();
}

// ---- a takeback's state --------------------------------------------------------------------------

/**
 * After a takeback is taken in (store/game.js undoes its turns): the restored position's last turn
 * is not played again, and the players hear who took back what.
 */
export function afterTakeback(prev, s) {
  if (!isTakeback(prev, s)) return;
  board.effects = [];
  // The proposer hears that it was granted; the one who accepted knows.
  const proposer = s.turn;
  if (atOneScreen()) {
    toast(t('tb.taken_back', { side: sideName(proposer) }), 'ok');
  } else if (isPlayer() && proposer === app.seat && !vsComputer(s)) {
    toast(t('tb.accepted', { side: sideName(opponentOf(s)) }), 'ok');
  } else if (!isPlayer()) {
    toast(t('tb.took_back', { side: sideName(proposer) }), 'info');
  }
  tb.declined = null;
}
