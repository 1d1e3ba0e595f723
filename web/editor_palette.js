// The analysis board's palette: a button for each piece the variant has (side, kind, rank) and
// the eraser; the one chosen is what a click on the board puts down (editor.js).

import { language, t as tr } from './i18n.js';
import { $, h, humanize, sideName } from './ui.js';
import { dispatch } from './store/store.js';
import { drawPiece } from './pieces.js';
import { ed, edSides } from './editor_state.js';
import { isKaboom } from './position_text.js';
import { pieceWords } from './turn_words.js';

const kaboom = () => isKaboom(ed.variant);

function paletteTools() {
  if (kaboom()) {
    return [
      ['x', 'normal'],
      ['o', 'normal'],
      ['x', 'bomb'],
      ['o', 'bomb'],
    ].map(([side, kind]) => ({ side, kind, rank: 'man' }));
  }
  const kinds = ed.variant === 'bomb' ? ['normal', 'shield', 'bomb'] : ['normal'];
  const ranks = ed.variant === 'triple_king' ? ['man', 'king', 'triple_king'] : ['man', 'king'];
  return edSides().flatMap((side) => kinds.flatMap((kind) => ranks.map((rank) => ({ side, kind, rank }))));
}

export function toolName(t) {
  if (t === 'erase') return tr('ed.eraser');
  // English keeps its short names ("Fire shield man"); the other languages say the piece in words.
  if (language() !== 'en') return pieceWords(t, kaboom());
  if (kaboom()) return `${sideName(t.side)} ${t.kind === 'bomb' ? 'bomb' : 'piece'}`;
  const kind = t.kind === 'normal' ? '' : ` ${t.kind}`;
  return `${sideName(t.side)}${kind} ${t.rank === 'man' ? 'man' : humanize(t.rank).toLowerCase()}`;
}

function pieceIcon(t) {
  const c = h('canvas.ed-icon', { width: 64, height: 64, 'aria-hidden': 'true' });
  drawPiece(c.getContext('2d'), 32, 32, 25, t);
  return c;
}

export function renderPalette() {
  const tools = [...paletteTools(), 'erase'];
  if (!tools.some((t) => sameTool(t, ed.tool))) dispatch({ type: 'analysis/tool', tool: tools[0] });
  $('#ed-palette').replaceChildren(
    ...tools.map((t) => {
      const name = toolName(t);
      return h(
        'button.ed-tool',
        {
          type: 'button',
          role: 'radio',
          'aria-checked': String(sameTool(t, ed.tool)),
          'aria-label': name,
          title: name,
          onclick: () => {
            dispatch({ type: 'analysis/tool', tool: t });
            renderPalette();
          },
        },
        t === 'erase' ? h('span.ed-eraser', { 'aria-hidden': 'true' }, '✕') : pieceIcon(t),
      );
    }),
  );
}

export function sameTool(a, b) {
  if (a === 'erase' || b === 'erase' || !a || !b) return a === b;
  return a.side === b.side && a.kind === b.kind && a.rank === b.rank;
}
