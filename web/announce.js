// Words for a screen reader: one polite live region (#announcer) that says each turn as it is
// played, ours and the opponent's, at one screen and against the computer too, then whose turn it
// is; and what the keyboard's keys ask for (keyboard.js). The words are the catalogue's (i18n.js).

import { sideWord, t } from './i18n.js';
import { app, subscribe } from './store/store.js';
import { atOneScreen, isPlayer, mySide, sidesOf } from './context.js';
import { resultText } from './ui.js';
import { currentNotation } from './notation_view.js';
import { squareIn } from './notation.js';
import { turnWords } from './turn_words.js';
import { isConnect } from './variants.js';

const region = document.createElement('div');
region.id = 'announcer';
region.className = 'sr-only';
region.setAttribute('aria-live', 'polite');
region.setAttribute('aria-atomic', 'true');
document.body.append(region);

let clearTimer = 0;
/** Says `text` through the live region (the same words twice are said twice). */
export function announce(text) {
  if (!text) return;
  clearTimeout(clearTimer);
  region.textContent = '';
  // A new text node in a later task: a screen reader hears a change even when the words repeat.
  setTimeout(() => {
    region.textContent = text;
    region.dataset.count = String(Number(region.dataset.count ?? 0) + 1);
  }, 30);
}

/** A square's name in the game's notation. */
export function nameOf(sq) {
  const s = app.state;
  return squareIn(currentNotation(), sq, { width: s?.board?.width ?? 8, height: s?.board?.height ?? 8 });
}

/** Whose turn it is, in words: "Your turn.", "Water to move.", or how the game ended. */
export function turnNow(s = app.state) {
  if (!s) return t('ann.no_game');
  if (s.status === 'finished') {
    const sides = sidesOf(s.variant);
    const opt = s.options ?? {};
    const result = resultText(s.result, sides, s.connect ?? opt.connect ?? 4, !!opt.misere, app.leftSide);
    return t('ann.game_over', { result });
  }
  if (s.status !== 'playing') return '';
  if (isPlayer() && !atOneScreen() && s.turn === mySide()) return t('ann.your_turn');
  return t('ann.to_move', { side: sideWord(s.turn) });
}

/** The last turn in words, with whose turn it is now. */
export function lastTurnWords(s = app.state) {
  if (!s?.last) return `${t('kb.last_none')} ${turnNow(s)}`;
  return `${turnWords(s.last, nameOf)}. ${turnNow(s)}`;
}

let seen = { key: '', version: -1, status: '' };
subscribe(() => {
  const s = app.state;
  if (!s) return;
  const key = `${app.room}:${s.game ?? app.gameNo}`;
  const fresh = key !== seen.key;
  const moved = !fresh && s.version > seen.version;
  const ended = !fresh && s.status === 'finished' && seen.status !== 'finished';
  seen = { key, version: s.version, status: s.status };
  if (fresh || app.replay) return; // a game opened (or looked back at) is not news
  // A capture sequence is said once, when its turn is complete.
  if (moved && s.last && s.last.complete !== false) announce(lastTurnWords(s));
  else if (ended) announce(turnNow(s));
  else if (moved && isConnect(s.variant) && !s.last) announce(turnNow(s));
});
