// The analysis board's position editor (/analysis): the variant and its options, a palette of
// pieces to click onto the board, the side to move and Kaboom's bombs in hand, the position as
// text (import and export), and the server's word on the position as it is set up.

import { t } from './i18n.js';
import { $, copyText, h, humanize, markChecked, optionInput, sideChip, sideName, toast, variantName } from './ui.js';
import { app, dispatch } from './store/store.js';
import { same } from './squares.js';
import { showScreen } from './screen.js';
import { edBoard, edCanvas, layoutEditorBoard, say, setValue, showPosition, squareOf } from './editor_board.js';
import { analysisLink, currentPos, defaultOptions, ed, edSides, editorView, optionSpecs } from './editor_state.js';
import { enterExplore, exploreClick, exploreGhost, exploreKey, leaveExplore } from './explore.js';
import { renderPlay } from './editor_play.js';
import * as pt from './position_text.js';
import { renderPalette, sameTool } from './editor_palette.js';
import { scheduleCheck } from './editor_check.js';
import { boardKeys } from './board_keys.js';
import { squareWords } from './turn_words.js';

const kaboom = () => pt.isKaboom(ed.variant);

// ---- opening: /analysis?variant=V&<option>=<value>...&fen=<text> -----------------------------

const variantsKnown = () =>
  new Promise((resolve) => {
    const check = () => (app.variants.length ? resolve() : setTimeout(check, 50));
    check();
  });

/** Opens the analysis board on the position of the address (or the start). */
export async function openAnalysis() {
  showScreen('analysis');
  document.title = `${t('html.analysis_board')} · Bomb Checkers`;
  requestAnimationFrame(layoutEditorBoard);
  if (!app.variants.length) {
    setValue(t('html.connecting_to_the_server'));
    await variantsKnown();
  }
  $('#ed-variant').replaceChildren(
    ...app.variants.map((v) => h('option', { value: v.id }, v.name ?? variantName(v.id))),
  );
  const q = new URLSearchParams(location.search);
  const text = q.get('fen') ?? q.get('position');
  let variant = q.get('variant') ?? (text ? variantOfText(text) : null) ?? ed.variant;
  if (!app.variants.some((v) => v.id === variant)) variant = app.variants[0].id;
  const options = defaultOptions(variant);
  for (const s of optionSpecs(variant)) {
    const v = q.get(s.name);
    const n = Number.parseInt(v, 10);
    if (s.type === 'bool' && v !== null) options[s.name] = v === '1' || v === 'true';
    else if (n >= s.min && n <= s.max) options[s.name] = n; // a number out of range keeps the default
  }
  if (ed.mode === 'explore') leaveExplore();
  setVariant(variant, options);
  if (text) loadText(text, true);
}

/** The variant a text is most likely for, from its side to move (null when it cannot tell). */
function variantOfText(text) {
  const t = text.trim();
  if (t.startsWith('(')) return 'kaboom';
  const side = t.split(':')[0];
  if (side === 'x' || side === 'o') return 'kaboom';
  if (side === 'fire' || side === 'water') return 'bomb';
  if (side === 'black' || side === 'white')
    return ['classic', 'triple_king'].includes(ed.variant) ? ed.variant : 'classic';
  return null;
}

// ---- the variant and its options --------------------------------------------------------------

function setVariant(variant, options) {
  dispatch({ type: 'analysis/variant', variant, options });
  $('#ed-variant').value = variant;
  $('#ed-format-box').hidden = !kaboom();
  $('#ed-format').value = ed.format;
  renderOptions();
  renderPalette();
  setPosition(pt.startPosition(variant, options));
}

function renderOptions() {
  const inputs = optionSpecs().map((o) => optionInput(o, `ed-opt-${o.name}`, ed.options[o.name]));
  $('#ed-options').replaceChildren(...inputs);
}

$('#ed-variant').addEventListener('change', () => {
  if (ed.mode === 'explore') leaveExplore();
  const v = $('#ed-variant').value;
  setVariant(v, defaultOptions(v));
});

$('#ed-options').addEventListener('change', (e) => {
  const input = e.target;
  const spec = optionSpecs().find((s) => s.name === input.name);
  if (!spec) return;
  if (spec.type === 'bool') dispatch({ type: 'analysis/option', name: spec.name, value: input.checked });
  else {
    const n = Number.parseInt(input.value, 10);
    if (!Number.isFinite(n) || n < spec.min || n > spec.max) {
      say(t('ed.whole_from_to', { name: humanize(spec.name), min: spec.min, max: spec.max }));
      input.value = ed.options[spec.name];
      return;
    }
    dispatch({ type: 'analysis/option', name: spec.name, value: n });
  }
  if (ed.mode === 'explore') leaveExplore();
  // A Kaboom board of another size keeps the pieces that still fit.
  const { width, height } = pt.boardSize(ed.variant, ed.options);
  const pieces = ed.pos.pieces.filter((p) => p.at[0] < width && p.at[1] < height);
  setPosition({ ...ed.pos, width, height, pieces });
});

// ---- clicks on the board ----------------------------------------------------------------------

/** The row a piece dropped in column x comes to rest on (the height when the column is full). */
function landing(pos, x) {
  let y = 0;
  while (pos.pieces.some((p) => p.at[0] === x && p.at[1] === y)) y++;
  return y;
}

function setupClick(sq) {
  const here = ed.pos.pieces.find((p) => same(p.at, sq));
  const others = ed.pos.pieces.filter((p) => p !== here);
  const placing = ed.tool !== 'erase' && !(here && sameTool(here, ed.tool));
  if (!kaboom()) {
    if (!pt.playable(sq)) {
      edBoard.flash(sq);
      say(t('ed.dark_squares'), 'info');
      return;
    }
    setPosition({ ...ed.pos, pieces: placing ? [...others, { at: sq, ...ed.tool }] : others });
    return;
  }
  // Kaboom's pieces lie on each other: a piece placed in an empty cell falls to the bottom of its
  // column, and a piece taken out lets the ones above it fall one cell.
  const [x, y] = sq;
  if (placing && here) {
    setPosition({ ...ed.pos, pieces: [...others, { at: sq, ...ed.tool }] });
  } else if (placing) {
    const top = landing(ed.pos, x);
    if (top >= ed.pos.height) {
      edBoard.flash(sq);
      say(t('input.column_full'), 'info');
      return;
    }
    setPosition({ ...ed.pos, pieces: [...others, { at: [x, top], ...ed.tool }] });
  } else if (here) {
    const fallen = others.map((p) => (p.at[0] === x && p.at[1] > y ? { ...p, at: [x, p.at[1] - 1] } : p));
    setPosition({ ...ed.pos, pieces: fallen });
  }
}

const boardClick = (sq) => (ed.mode === 'explore' ? exploreClick(sq) : setupClick(sq));
edCanvas.addEventListener('pointerup', (e) => {
  if (e.button !== 0 || !ed.pos) return;
  const sq = squareOf(e);
  if (sq) boardClick(sq);
});
// The keyboard's focus square (board_keys.js): Enter puts the palette's piece, or plays, there.
boardKeys(edCanvas, edBoard, {
  ready: () => !!ed.pos && !$('#analysis').hidden,
  start: () => [Math.floor(ed.pos.width / 2), Math.floor(ed.pos.height / 2)],
  describe: (sq) =>
    squareWords(
      sq,
      ed.pos.pieces.find((p) => same(p.at, sq)),
      pt.squareName,
      pt.isKaboom(ed.variant),
    ),
  click: boardClick,
});
// Over a Kaboom column, the piece to come shows where it would land.
edCanvas.addEventListener('pointermove', (e) => {
  const sq = squareOf(e);
  edCanvas.style.cursor = sq ? 'pointer' : 'default';
  const pos = currentPos();
  if (!kaboom() || !pos) return;
  const top = sq ? landing(pos, sq[0]) : pos.height;
  const empty = sq && !pos.pieces.some((p) => same(p.at, sq));
  const piece = ed.mode === 'explore' ? exploreGhost(sq) : ed.tool !== 'erase' && empty && ed.tool;
  edBoard.setUi({ hover: sq, ghost: piece && top < pos.height ? { sq: [sq[0], top], piece } : null });
});
edCanvas.addEventListener('pointerleave', () => edBoard.setUi({ hover: null, ghost: null }));

document.addEventListener('keydown', (e) => {
  const typing =
    e.target instanceof HTMLInputElement ||
    e.target instanceof HTMLTextAreaElement ||
    e.target instanceof HTMLSelectElement;
  if (typing || $('#analysis').hidden || document.querySelector('dialog[open]')) return;
  if (ed.mode === 'explore' && exploreKey(e.key)) e.preventDefault();
});

// ---- the position -----------------------------------------------------------------------------

/** Puts a position on the board (setup mode): the board, its fields and text, the address, and
 *  the server's check. */
export function setPosition(pos) {
  dispatch({ type: 'analysis/position', pos: { ...pos, pieces: pt.sortPieces(pos.pieces) } });
  say(''); // the check says what is wrong with the new one
  showPosition(ed.pos);
  edBoard.setMarks([]);
  edBoard.setUi({ selected: null });
  renderTurn();
  renderBombs();
  positionShown(ed.pos);
  scheduleCheck();
}

/** What follows the position shown, in setup and explore alike: its text and the address. */
export function positionShown(pos) {
  $('#ed-text').value = kaboom() && ed.format === 'gamesman' ? pt.formatGamesman(pos) : pt.formatFen(pos);
  if (location.pathname.startsWith('/analysis')) history.replaceState(history.state, '', analysisLink(pos, ed.options));
  renderPlay();
}

Object.assign(editorView, { setPosition, positionShown });

function renderTurn() {
  const box = $('#ed-turn');
  box.replaceChildren(
    h('legend', {}, t('html.to_move')),
    ...edSides().map((s) =>
      h(
        'label.side-pick',
        {},
        h('input', { type: 'radio', name: 'ed-turn', value: s, checked: s === ed.pos.turn }),
        sideChip(s),
        h('span', {}, sideName(s)),
      ),
    ),
  );
  markChecked(box);
}

$('#ed-turn').addEventListener('change', (e) => setPosition({ ...ed.pos, turn: e.target.value }));

function renderBombs() {
  const box = $('#ed-bombs');
  box.hidden = !kaboom();
  if (!kaboom()) return;
  box.replaceChildren(
    ...edSides().map((s) =>
      h(
        'label.field.num',
        {},
        h('span', {}, t('ed.bombs_left', { side: sideName(s) })),
        h('input', {
          type: 'number',
          name: s,
          min: 0,
          max: 10,
          step: 1,
          value: ed.pos.bombs?.[s] ?? 0,
          inputmode: 'numeric',
          id: `ed-bombs-${s}`,
        }),
      ),
    ),
  );
}

$('#ed-bombs').addEventListener('change', (e) => {
  const n = Number.parseInt(e.target.value, 10);
  if (!Number.isFinite(n) || n < 0 || n > 10) {
    say(t('ed.bombs_range'));
    e.target.value = ed.pos.bombs[e.target.name];
    return;
  }
  setPosition({ ...ed.pos, bombs: { ...ed.pos.bombs, [e.target.name]: n } });
});

$('#ed-clear').addEventListener('click', () => setPosition({ ...ed.pos, pieces: [] }));
$('#ed-start').addEventListener('click', () => setPosition(pt.startPosition(ed.variant, ed.options)));
$('#ed-explore').addEventListener('click', () => enterExplore(ed.pos));

// ---- the position as text ---------------------------------------------------------------------

/** Loads a text in either notation; a Gamesman string sets the board's size too. The text box
 *  then shows the notation loaded (`keepFormat`: the one it showed, for a link's line). */
function loadText(text, keepFormat = false) {
  let got;
  try {
    got = pt.parsePositionText(text, ed.variant, ed.options);
    if (got.format === 'gamesman') {
      for (const [name, n] of [
        ['width', got.pos.width],
        ['height', got.pos.height],
      ]) {
        const s = optionSpecs().find((o) => o.name === name);
        if (s && (n < s.min || n > s.max))
          throw new pt.PositionTextError(`the board's ${name} must be from ${s.min} to ${s.max}, not ${n}`);
      }
    }
  } catch (e) {
    say(t('ed.text_bad', { msg: e.message }));
    return false;
  }
  if (ed.mode === 'explore') leaveExplore();
  if (got.format === 'gamesman') {
    dispatch({ type: 'analysis/board_size', width: got.pos.width, height: got.pos.height });
    renderOptions();
  }
  if (kaboom() && !keepFormat) {
    dispatch({ type: 'analysis/format', format: got.format });
    $('#ed-format').value = ed.format;
  }
  setPosition(got.pos);
  return true;
}

$('#ed-load').addEventListener('click', () => {
  const text = $('#ed-text').value;
  const v = variantOfText(text);
  // A text of another variant's sides switches the variant first.
  if (v && v !== ed.variant && !(v === 'classic' && ed.variant === 'triple_king')) {
    if (ed.mode === 'explore') leaveExplore();
    setVariant(v, defaultOptions(v));
  }
  loadText(text);
});
$('#ed-text').addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey) {
    e.preventDefault();
    $('#ed-load').click();
  }
});
$('#ed-format').addEventListener('change', () => {
  dispatch({ type: 'analysis/format', format: $('#ed-format').value });
  positionShown(ed.mode === 'explore' ? currentPos() : ed.pos);
});
$('#ed-copy').addEventListener('click', async () => {
  const ok = await copyText($('#ed-text').value);
  toast(ok ? t('ed.position_copied') : t('ed.copy_this', { text: $('#ed-text').value }), ok ? 'ok' : 'info');
});
$('#ed-link').addEventListener('click', async () => {
  const link = location.origin + analysisLink(currentPos(), ed.options);
  const ok = await copyText(link);
  toast(ok ? t('ed.link_copied') : t('controls.copy_this', { link }), ok ? 'ok' : 'info', ok ? 4200 : 8000);
});
