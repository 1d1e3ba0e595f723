// A puzzle in words, for the list (/puzzles) and the puzzle's page: its kind, its variant and board,
// its difficulty, and who plays to win (docs/PUZZLES.md).

import { t } from './i18n.js';
import { sideName, variantName } from './ui.js';
import { boardSize, isKaboom } from './position_text.js';

// The kinds' words are the catalogue's: pz.kind.KIND (the list's heading), .blurb, .title.
const KINDS = ['kaboom', 'ending'];

export const kindName = (kind) => (KINDS.includes(kind) ? t(`pz.kind.${kind}`) : kind);
/** A kind's words under its heading in the list, or null. */
export const kindBlurb = (kind) => (KINDS.includes(kind) ? t(`pz.kind.${kind}.blurb`) : null);
/** The heading of a puzzle's page: "Ending puzzle". */
export const kindTitle = (kind) => (KINDS.includes(kind) ? t(`pz.kind.${kind}.title`) : t('html.puzzle'));

/** Where a puzzle comes from (its `source`): "a random game", "game K7QF2M, turn 31". */
export function sourceWords(source) {
  const game = /^game (\S+?)#(\d+)$/.exec(source ?? '');
  if (game) return t('pz.from_game', { room: game[1], game: game[2] });
  return source === 'generated' ? t('pz.from_random') : (source ?? '');
}

/** "4×4 board · connect 3 · 1 bomb each · misère": the board and the options that shape it. */
export function optionsWords(variant, options = {}) {
  const { width, height } = boardSize(variant, options);
  const words = [t('pz.board', { width, height })];
  if (isKaboom(variant)) {
    if (options.connect) words.push(t('pz.connect', { n: options.connect }));
    const bombs = options.bombs ?? 0;
    words.push(bombs ? t('pz.bombs_each', { count: bombs }) : t('cards.no_bombs'));
    if (options.misere) words.push(t('pz.misere'));
    if (options.superbomb) words.push(t('pz.superbomb'));
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
  return { dots: '●'.repeat(n) + '○'.repeat(5 - n), label: t('pz.difficulty_of', { n }) };
}

/** "X to play and win in 2 turns" (the solver's turns: the difficulty, docs/PUZZLES.md). */
export function goalWords(p) {
  const n = Math.max(1, Math.ceil(((p.remoteness ?? 1) + 1) / 2));
  return n > 1 ? t('pz.goal_in', { side: sideName(p.turn), n }) : t('pz.goal', { side: sideName(p.turn) });
}
