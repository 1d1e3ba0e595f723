// A puzzle in words, for the list (/puzzles) and the puzzle's page: its kind, its variant and board,
// its difficulty, and who plays to win (docs/PUZZLES.md).

import { sideName, variantName } from './ui.js';
import { boardSize, isKaboom } from './position_text.js';

export const KIND_NAMES = { kaboom: 'Kaboom, solved', ending: 'Endings' };
export const KIND_BLURBS = {
  kaboom: 'Kaboom boards small enough to be solved exactly: every other turn only ties or loses.',
  ending: 'Checkers endings where the search proves that every other turn loses.',
};

const KIND_TITLES = { kaboom: 'Kaboom puzzle', ending: 'Ending puzzle' };

export const kindName = (kind) => KIND_NAMES[kind] ?? kind;
/** The heading of a puzzle's page: "Ending puzzle". */
export const kindTitle = (kind) => KIND_TITLES[kind] ?? 'Puzzle';

/** Where a puzzle comes from (its `source`): "a random game", "game K7QF2M, turn 31". */
export function sourceWords(source) {
  const game = /^game (\S+?)#(\d+)$/.exec(source ?? '');
  if (game) return `a game played here (${game[1]}, game ${game[2]})`;
  return source === 'generated' ? 'a random game' : (source ?? '');
}

/** "4×4 board · connect 3 · 1 bomb each · misère": the board and the options that shape it. */
export function optionsWords(variant, options = {}) {
  const { width, height } = boardSize(variant, options);
  const words = [`${width}×${height} board`];
  if (isKaboom(variant)) {
    if (options.connect) words.push(`connect ${options.connect}`);
    const bombs = options.bombs ?? 0;
    words.push(bombs ? `${bombs} ${bombs === 1 ? 'bomb' : 'bombs'} each` : 'no bombs');
    if (options.misere) words.push('misère (a line loses)');
    if (options.superbomb) words.push('superbomb');
  }
  return words.join(' · ');
}

/** "Kaboom · 4×4 board · connect 3 · 1 bomb each". */
export function puzzleGame(p, variants) {
  return `${variantName(p.variant, variants)} · ${optionsWords(p.variant, p.options)}`;
}

/** Difficulty 1 to 5 as dots, with its words for screen readers. */
export function difficultyWords(d) {
  const n = Math.max(1, Math.min(5, Number(d) || 1));
  return { dots: '●'.repeat(n) + '○'.repeat(5 - n), label: `difficulty ${n} of 5` };
}

/** "X to play and win in 2 turns" (the solver's turns: the difficulty, docs/PUZZLES.md). */
export function goalWords(p) {
  const n = Math.max(1, Math.ceil(((p.remoteness ?? 1) + 1) / 2));
  return `${sideName(p.turn)} to play and win${n > 1 ? ` in ${n} turns` : ''}`;
}
