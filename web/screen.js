// The game screen's drawing, asked for by whatever changed what it shows (a state, a click, a
// timer, a reply), without importing the view that draws it: game_view.js fills these in when it
// loads, and the modules that change the screen only ask. So the view depends on them, never the
// other way round (no import cycle through the view). And which of the page's screens shows.

import { $ } from './ui.js';

export const screen = {
  /** Draws the game screen from the latest state. */
  render() {},
  /** Fits the board to its area. */
  layout() {},
  /** The canvas's data-* attributes (what tests and assistive tech read) from the state. */
  dataAttrs() {},
  /** Forgets the finished game's overlay, so that it shows again for the next one. */
  forgetOverlay() {},
  /** Kaboom's ghost piece under the pointer, from the legal actions; null when none. */
  ghost() {
    return null;
  },
};

/** game_view.js's functions, once it has loaded. */
export function drawTheScreenWith(fns) {
  Object.assign(screen, fns);
}

const SCREENS = ['start', 'game', 'analysis', 'profile', 'leaderboard', 'puzzles', 'puzzle'];

/** Shows one of the page's screens: 'start', 'game', 'analysis', 'profile', 'leaderboard', 'puzzles'
 *  (the list) or 'puzzle' (one). */
export function showScreen(name) {
  if (document.body.dataset.screen !== name) window.scrollTo(0, 0);
  for (const id of SCREENS) $(`#${id}`).hidden = name !== id;
  document.body.dataset.screen = name;
  if (name === 'game') requestAnimationFrame(() => screen.layout());
}
