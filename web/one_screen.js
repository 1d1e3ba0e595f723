// Two people at one screen (a one-screen room, made with create's "seat":"both"; PROTOCOL.md, "One
// screen"): this page holds both seats and every click, key and button acts for the side to move.
// Here: the players' names in words, the words of the buttons that act for the side to move, the
// draw offer answered on the same screen, the badge, and the setting that turns the board with the
// turn. The rules of who may act are the server's; context.js's mySide() says for whom we act.

import { t } from './i18n.js';
import { $, sideName } from './ui.js';
import { app, batch, dispatch } from './store/store.js';
import { saved } from './store/saved.js';
import { atOneScreen, board, flipped, sidesOf } from './context.js';
import { isConnect } from './variants.js';

/** The player's name of a side, or '' when it is only the side's own name. */
export function playerName(side, s = app.state) {
  const name = s?.players?.[side]?.name ?? '';
  return name === sideName(side) ? '' : name;
}

/** "Fire (Ann)", or "Fire" when the player has no name of their own. */
export function sideWithName(side, s = app.state) {
  const name = playerName(side, s);
  return name ? `${sideName(side)} (${name})` : sideName(side);
}

export function otherSide(side, s = app.state) {
  const sides = sidesOf(s.variant);
  return sides[0] === side ? sides[1] : sides[0];
}

/** The status line while the game is on: "Fire to move — Ann", and a capture sequence's choice. */
export function turnLine(s, legal) {
  const name = playerName(s.turn, s);
  const who = `${sideName(s.turn)}${name ? ` — ${name}` : ''}`;
  if (legal.some((a) => a.kind === 'end_turn')) return t('one.keep_capturing', { who });
  return name
    ? `${t('kb.to_move_caption', { side: sideName(s.turn) })} — ${name}`
    : t('ann.to_move', { side: sideName(s.turn) });
}

/** The result card's title: the winner by side and name. */
export function winnerTitle(s) {
  const w = s.result?.winner;
  const name = w ? playerName(w, s) : '';
  return t('one.wins', { who: name || sideName(w) });
}

/** What the result card adds: who plays which side in the rematch (the players swap sides). */
export function rematchNote(s) {
  const [a, b] = sidesOf(s.variant);
  const na = playerName(a, s);
  const nb = playerName(b, s);
  if (!na || !nb) return t('one.rematch_swap');
  return t('one.rematch_names', { nb, na, a: sideName(a), b: sideName(b) });
}

/** The draw offer's question, asked on the screen where it was made. */
export function drawQuestion(from) {
  return t('one.draw_question', { side: sideWithName(from), other: sideWithName(otherSide(from)) });
}

// ---- the buttons that act for the side to move -------------------------------------------------

// The accessible name begins with the words shown (WCAG's label in name), then says who.
const BUTTONS = {
  resign: (side) => [
    `⚑ ${t('one.resigns', { side: sideName(side) })}`,
    `${t('one.resigns_game', { side: sideName(side) })}${byName(side)}`,
  ],
  'offer-draw': (side) => [
    t('one.offers', { side: sideName(side) }),
    `${t('one.offers', { side: sideName(side) })}${byName(side)}`,
  ],
  'draw-accept': (side) => [t('html.accept'), t('one.accept_for', { who: sideWithName(side) })],
  'draw-decline': (side) => [t('html.decline'), t('one.decline_for', { who: sideWithName(side) })],
};

function byName(side) {
  const name = playerName(side);
  return name ? ` (${name})` : '';
}
// Their words elsewhere, from index.html, to put back when this page leaves a one-screen room.
const usual = new Map(
  Object.keys(BUTTONS).map((id) => {
    const el = $(`#${id}`);
    return [id, [el.textContent, el.getAttribute('aria-label')]];
  }),
);

function label(id, [text, aria]) {
  const el = $(`#${id}`);
  if (el.textContent !== text) el.textContent = text;
  if (aria) el.setAttribute('aria-label', aria);
  else el.removeAttribute('aria-label');
}

/** After a render: the badge, the setting, and the buttons' words (for whom they act). */
export function renderOneScreen(s) {
  const here = atOneScreen();
  const badge = $('#one-screen-badge');
  badge.hidden = !s.one_screen;
  badge.textContent = here ? t('html.one_screen') : t('one.played_on_one');
  $('#turn-board-box').hidden = !here || isConnect(s.variant);
  $('#turn-board').checked = saved.turnBoard;
  const offerFrom = app.drawOffer?.from;
  for (const [id, words] of Object.entries(BUTTONS)) {
    if (!here) label(id, usual.get(id));
    else if (id.startsWith('draw-')) label(id, words(offerFrom ? otherSide(offerFrom, s) : s.turn));
    else label(id, words(s.turn));
  }
}

$('#turn-board').addEventListener('change', (e) => {
  saved.turnBoard = e.target.checked;
  batch(() => {
    dispatch({ type: 'want/turn_board' });
    board.setFlipped(flipped(), true);
  });
});
