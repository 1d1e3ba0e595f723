// One puzzle, /puzzles/{id} (GET /api/puzzles/{id}; docs/PUZZLES.md): what it is (kind, game,
// board, difficulty, who plays to win), its board (puzzle_board.js), and what the player's turns
// meant (puzzle_play.js): right, wrong with Retry and the solution, solved with the next puzzle.

import { t } from './i18n.js';
import { $, h, sideChip, sideName, variantName } from './ui.js';
import { app, dispatch, puzzle as pz, subscribe } from './store/store.js';
import { apiFetch } from './net.js';
import { showScreen } from './screen.js';
import { sidesOf } from './context.js';
import { boardSize, isKaboom, sortPieces, squareName } from './position_text.js';
import { difficultyWords, goalWords, kindTitle, optionsWords, sourceWords } from './puzzle_words.js';
import { nextPuzzle, ownCopy, puzzleList } from './puzzle_list.js';
import { layoutPuzzleBoard, pzBoard, pzCanvas, squareOf } from './puzzle_board.js';
import { boardKeys } from './board_keys.js';
import { squareWords } from './turn_words.js';
import { same } from './squares.js';
import * as play from './puzzle_play.js';

let seq = 0;

export async function openPuzzle(id) {
  const mine = ++seq;
  play.stopTimers();
  showScreen('puzzle');
  document.title = `${t('html.puzzle')} · Bomb Checkers`;
  requestAnimationFrame(layoutPuzzleBoard);
  dispatch({ type: 'puzzle/open', puzzle: null, start: null });
  hint('');
  $('#pz-body').hidden = true;
  say(t('html.loading'));
  const [found] = await Promise.all([fetchPuzzle(id), play.loadCore()]);
  if (mine !== seq) return;
  if (!found.puzzle) {
    say(found.why);
    return;
  }
  const p = found.puzzle;
  dispatch({ type: 'puzzle/open', puzzle: p, start: startOf(p) });
  say('');
  document.title = `${kindTitle(p.kind)} · Bomb Checkers`;
  $('#pz-body').hidden = false;
  renderFacts(p);
  renderPanel();
  play.redraw();
  requestAnimationFrame(layoutPuzzleBoard);
  renderNext(p);
}

async function fetchPuzzle(id) {
  try {
    const res = await apiFetch(`/api/puzzles/${encodeURIComponent(id)}`);
    if (res.ok) return { puzzle: await res.json() };
    if (res.status === 404) return { why: t('pz.no_such', { id }) };
    return { why: t('pz.unavailable', { status: res.status }) };
  } catch {
    // no server: the page's own copy of the collection
    const p = (await ownCopy())?.puzzles.find((q) => q.id === id);
    return p ? { puzzle: p } : { why: t('account.unreachable') };
  }
}

/** The puzzle's position in the page's form (position_text.js), from its wire form. */
function startOf(p) {
  const { width, height } = boardSize(p.variant, p.options ?? {});
  const w = p.position ?? {};
  const kaboom = isKaboom(p.variant);
  return {
    variant: p.variant,
    width,
    height,
    turn: w.turn ?? p.turn,
    pieces: sortPieces(w.pieces ?? []),
    bombs: kaboom ? { x: w.bombs?.x ?? 0, o: w.bombs?.o ?? 0 } : null,
  };
}

function say(text) {
  const el = $('#pz-page-message');
  el.textContent = text;
  el.hidden = !text;
}

function renderFacts(p) {
  const { dots, label } = difficultyWords(p.difficulty);
  $('#pz-kind').textContent = kindTitle(p.kind);
  $('#pz-goal').replaceChildren(sideChip(p.turn), ` ${goalWords(p)}`);
  $('#pz-facts').replaceChildren(
    h('dt', {}, t('html.game')),
    h('dd', {}, variantName(p.variant, app.variants)),
    h('dt', {}, t('pz.board_label')),
    h('dd', {}, optionsWords(p.variant, p.options)),
    h('dt', {}, t('pz.difficulty')),
    h('dd', {}, h('span.pz-dots', { 'aria-hidden': 'true' }, dots), h('span.sr-only', {}, label)),
    p.source ? h('dt', {}, t('pz.from')) : null,
    p.source ? h('dd', {}, sourceWords(p.source)) : null,
  );
  // The switch only where there are bombs to drop.
  const bombs = p.position?.bombs ?? {};
  $('#pz-bomb-box').hidden = !isKaboom(p.variant) || !((bombs.x ?? 0) + (bombs.o ?? 0));
}

/** The link to the next puzzle, once the list is known. */
async function renderNext(p) {
  const link = $('#pz-next');
  link.hidden = true;
  const next = nextPuzzle(await puzzleList(), p);
  if (!next || pz.puzzle?.id !== p.id) return;
  link.href = `/puzzles/${encodeURIComponent(next.id)}`;
  link.hidden = false;
  renderPanel();
}

// ---- what the player's turns meant --------------------------------------------------------------

function renderPanel() {
  const p = pz.puzzle;
  if (!p) return;
  const line = p.line ?? [];
  const opponent = sidesOf(p.variant).find((s) => s !== p.turn) ?? '';
  const end = pz.step >= line.length;
  const words = {
    solving: pz.step ? t('pz.right_again') : t('pz.find'),
    reply: t('pz.reply', { side: sideName(opponent) }),
    wrong: t('pz.wrong', { turn: pz.wrong }),
    also: t('pz.also', { turn: pz.wrong }),
    solved: t('pz.solved'),
    solution: end ? t('pz.solution_end') : t('pz.solution_steps'),
  }[pz.mode];
  const fb = $('#pz-feedback');
  fb.textContent = play.coreFailed() ? t('pz.core_missing') : (words ?? '');
  fb.className = `pz-feedback ${pz.mode}`;
  $('#puzzle').dataset.mode = pz.mode;
  $('#pz-retry').hidden = pz.mode !== 'wrong';
  $('#pz-solution').hidden = !['solving', 'wrong', 'also'].includes(pz.mode);
  $('#pz-again').hidden = !(pz.mode === 'solved' || (pz.mode === 'solution' && end));
  $('#pz-next').classList.toggle('primary', pz.mode === 'solved' || pz.mode === 'solution');
  const endTurn = play.legalNow().some((a) => a.kind === 'end_turn');
  $('#pz-end-turn').hidden = !endTurn;
  const bombs = pz.pos?.bombs?.[pz.pos.turn] ?? 0;
  $('#pz-bomb').disabled = !bombs || !['solving', 'wrong', 'also'].includes(pz.mode);
  $('#pz-bomb').checked = pz.bomb;
  $('#pz-line').replaceChildren(
    ...line
      .slice(0, pz.step)
      .map((t, i) =>
        h(
          'li',
          { dataset: { side: t.side } },
          h('span.num', {}, `${i + 1}.`),
          sideChip(t.side),
          h('span', {}, t.text || '…'),
        ),
      ),
  );
  $('#pz-line-card').hidden = !pz.step;
}

subscribe((actions) => {
  if (actions.some((a) => a.type.startsWith('puzzle/')) && !$('#puzzle').hidden) renderPanel();
});

// ---- the buttons and the board ------------------------------------------------------------------

function hint(text) {
  $('#pz-hint').textContent = text ?? '';
}

$('#pz-retry').addEventListener('click', play.retry);
$('#pz-solution').addEventListener('click', play.showSolution);
$('#pz-again').addEventListener('click', play.restart);
$('#pz-end-turn').addEventListener('click', play.endTurn);
$('#pz-bomb').addEventListener('change', (e) => {
  dispatch({ type: 'puzzle/bomb', on: e.target.checked });
  play.redraw();
});

pzCanvas.addEventListener('pointerup', (e) => {
  if (e.button !== 0) return;
  const sq = squareOf(e);
  if (sq) hint(play.clickSquare(sq));
});
// The keyboard's focus square (board_keys.js): Enter does what a click does.
const keys = boardKeys(pzCanvas, pzBoard, {
  ready: () => !!pz.pos && !$('#puzzle').hidden,
  start: () => {
    const { width, height } = pz.pos;
    return pz.selected ?? play.legalNow().find((a) => a.from)?.from ?? [Math.floor(width / 2), height - 1];
  },
  describe: (sq) =>
    squareWords(
      sq,
      pz.pos.pieces.find((p) => same(p.at, sq)),
      squareName,
      isKaboom(pz.puzzle?.variant),
    ),
  space: () => !play.legalNow().some((a) => a.kind === 'end_turn'),
  click: (sq) => hint(play.clickSquare(sq)),
});
subscribe(() => keys.redraw());

document.addEventListener('keydown', (e) => {
  if ($('#puzzle').hidden || e.target instanceof HTMLInputElement || document.querySelector('dialog[open]')) return;
  if ((e.key === ' ' || e.key === 'Escape') && e.target.closest?.('button, summary, a[href]')) return;
  if (e.key === ' ' && play.legalNow().some((a) => a.kind === 'end_turn')) {
    e.preventDefault();
    play.endTurn();
  } else if (e.key === 'Escape' && pz.selected && !pz.partial.length) {
    dispatch({ type: 'puzzle/select', square: null });
    play.redraw();
  }
});
