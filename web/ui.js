// Screens and panels: small DOM helpers, the words the page uses, and renderers that turn a state
// into text. Nothing here talks to the network.

import { formatTurn } from './notation.js';
import { language, sideWord, t } from './i18n.js';

export const $ = (sel, root = document) => root.querySelector(sel);

/** h('button.primary', {onclick, 'aria-label': 'x'}, 'text', child...) */
export function h(tag, attrs = {}, ...children) {
  const [name, ...classes] = tag.split('.');
  const el = document.createElement(name);
  if (classes.length) el.className = classes.join(' ');
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'text') el.textContent = v;
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Marks the label of each checked radio in `fieldset`, for the styles (which cannot rely on
 *  :has() yet). */
export function markChecked(fieldset) {
  for (const label of fieldset.querySelectorAll('label')) {
    label.classList.toggle('is-checked', !!label.querySelector('input:checked'));
  }
}

// ---- words ----------------------------------------------------------------------------------

// The variants' names and blurbs are the catalogue's (variant.ID, variant.ID.blurb); in English a
// server's own name of a variant comes first.
const KNOWN_VARIANTS = ['bomb', 'classic', 'triple_king', 'kaboom'];

export const DEFAULT_SIDES = {
  bomb: ['fire', 'water'],
  classic: ['black', 'white'],
  triple_king: ['black', 'white'],
  kaboom: ['x', 'o'],
};

// ---- computer opponents ------------------------------------------------------------------------

/** The name of a computer level: the server's (in English), else the catalogue's for levels 1..8. */
export function aiName(level, names = {}) {
  const own = level >= 1 && level <= 8 ? t(`ai.level${level}`) : t('ai.level_n', { level });
  return (language() === 'en' ? names[level] : null) ?? own;
}

/**
 * The computer levels a server offers, from its welcome: `ai` as {min_level, max_level}, or
 * `ai_levels` / `ai.levels` as a list of numbers or of {level, name}, or {min, max}. Without any,
 * levels 1..8 (advertised: false).
 */
export function aiLevels(welcome) {
  const raw = welcome?.ai_levels ?? welcome?.ai?.levels ?? (Array.isArray(welcome?.ai) ? welcome.ai : null);
  const names = {};
  let levels = [];
  if (Array.isArray(raw)) {
    for (const x of raw) {
      const n = Number.isInteger(x) ? x : (x?.level ?? x?.id ?? x?.value);
      if (!Number.isInteger(n)) continue;
      levels.push(n);
      const name = x?.name ?? x?.label;
      if (typeof name === 'string' && name) names[n] = name;
    }
  } else {
    // {min, max} or {min_level, max_level}, under ai_levels or ai.
    const r = raw ?? welcome?.ai;
    const lo = r?.min_level ?? r?.min;
    const hi = r?.max_level ?? r?.max;
    if (Number.isInteger(lo) && Number.isInteger(hi) && hi >= lo && hi - lo < 100) {
      for (let n = lo; n <= hi; n++) levels.push(n);
    }
  }
  levels = [...new Set(levels)].sort((a, b) => a - b);
  const advertised = levels.length > 0 || welcome?.ai === true;
  if (!levels.length) levels = [1, 2, 3, 4, 5, 6, 7, 8];
  return { advertised, levels, names };
}

export function variantBlurb(id) {
  return KNOWN_VARIANTS.includes(id) ? t(`variant.${id}.blurb`) : '';
}

export function variantName(id, variants) {
  const v = variants?.find((x) => x.id === id);
  const own = KNOWN_VARIANTS.includes(id) ? t(`variant.${id}`) : null;
  return (language() === 'en' ? v?.name : null) ?? own ?? v?.name ?? id;
}

/** A side's name in the page's language ("Fire", "Feuer"). */
export const sideName = sideWord;

/** "draw_turns" -> "Draw turns" */
export function humanize(name) {
  const s = String(name).replace(/_/g, ' ');
  return s[0].toUpperCase() + s.slice(1);
}

/** How a game ended, in a sentence. `left`: the side that left a game drawn by abandonment, when
 *  known (the result names only a winner). */
export function resultText(result, sides, connect, misere, left = null) {
  if (!result) return '';
  const w = result.winner;
  const loser = w ? sides.find((s) => s !== w) : null;
  const W = sideName(w);
  const L = sideName(loser);
  switch (result.reason) {
    case 'no_pieces':
      return t('result.no_pieces', { W, L });
    case 'no_moves':
      return t('result.no_moves', { W, L });
    case 'mutual_destruction':
      return t('result.mutual_destruction');
    case 'connect':
      if (!w) return t('result.connect_draw');
      return misere ? t('result.connect_misere', { W, L, connect }) : t('result.connect', { W, connect });
    case 'resigned':
      return t('result.resigned', { W, L });
    case 'draw_agreed':
      return t('result.draw_agreed');
    case 'draw_rule':
      return t('result.draw_rule');
    case 'board_full':
      return t('result.board_full');
    case 'turn_limit':
      return t('result.turn_limit');
    case 'timeout':
      return w ? t('result.timeout', { W, L }) : t('result.timeout_draw');
    case 'aborted':
      return t('result.aborted');
    case 'abandoned':
      return w
        ? t('result.abandoned', { W, L })
        : t('result.abandoned_draw', { who: left ? sideName(left) : t('result.a_player') });
    default:
      return w
        ? t('result.other', { W, reason: humanize(result.reason ?? 'game over') })
        : t('result.other_draw', { reason: humanize(result.reason ?? 'game over') });
  }
}

/** The result in a few words, for the end of the move list: "Water wins on time", "Aborted",
 *  "Fire wins: Water left". `sides` and `left` as resultText's. */
export function resultShort(result, sides = [], left = null) {
  if (!result) return '';
  const w = result.winner;
  const W = sideName(w);
  if (result.reason === 'aborted') return t('short.aborted');
  if (result.reason === 'abandoned') {
    const gone = w ? sides.find((s) => s !== w) : left;
    if (w) return gone ? t('short.left', { W, L: sideName(gone) }) : t('short.abandonment', { W });
    return gone ? t('short.drawn_left', { L: sideName(gone) }) : t('short.drawn_abandonment');
  }
  if (result.reason === 'timeout') return w ? t('short.on_time', { W }) : t('short.drawn_on_time');
  if (result.reason === 'resigned') return t('short.resignation', { W });
  return w ? t('short.wins', { W }) : t('short.draw');
}

/** One turn in words, for the move list: "c3–d4", "c3×e5×c7", "↓4", "bomb ↓4", "detonate b1"
 *  (the project's notation; notation.js writes the others). */
export function turnText(last) {
  return formatTurn(last);
}

// ---- toasts ---------------------------------------------------------------------------------

export function toast(text, kind = 'info', ms = 4200) {
  const box = $('#toasts');
  const el = h(`div.toast.${kind}`, { role: kind === 'error' ? 'alert' : 'status' }, text);
  box.append(el);
  requestAnimationFrame(() => el.classList.add('show'));
  setTimeout(() => {
    el.classList.remove('show');
    setTimeout(() => el.remove(), 300);
  }, ms);
  while (box.children.length > 4) box.firstChild.remove();
}

// ---- dialogs --------------------------------------------------------------------------------

/** A yes/no question in a modal dialog; resolves true for yes. */
export function confirmDialog(question, yes, no = t('html.cancel')) {
  return new Promise((resolve) => {
    const dlg = $('#confirm');
    $('#confirm-text').textContent = question;
    const yesBtn = $('#confirm-yes');
    const noBtn = $('#confirm-no');
    yesBtn.textContent = yes;
    noBtn.textContent = no;
    const done = (v) => {
      yesBtn.onclick = null;
      noBtn.onclick = null;
      dlg.onclose = null;
      if (dlg.open) dlg.close();
      resolve(v);
    };
    yesBtn.onclick = () => done(true);
    noBtn.onclick = () => done(false);
    dlg.onclose = () => done(false);
    dlg.showModal();
    noBtn.focus();
  });
}

/** Copies text; falls back to a hidden textarea when the Clipboard API is unavailable. */
export async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the old way
  }
  const ta = h('textarea', { readonly: true, 'aria-hidden': 'true' });
  ta.value = text;
  ta.style.position = 'fixed';
  ta.style.opacity = '0';
  document.body.append(ta);
  ta.select();
  let ok;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  ta.remove();
  return ok;
}

// ---- a small piece icon for player cards and lists --------------------------------------------

/** An icon from the SVG sprite in index.html. */
export function icon(name, label) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('class', `ic ic-${name}`);
  if (label) {
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', label);
  } else {
    svg.setAttribute('aria-hidden', 'true');
  }
  const use = document.createElementNS(ns, 'use');
  use.setAttribute('href', `#i-${name}`);
  svg.append(use);
  return svg;
}

export function sideChip(side) {
  return h(`span.chip.side-${side}`, { 'aria-hidden': 'true' });
}

// The variants' options the catalogue knows (option.NAME, option.NAME.help): in English the
// server's own words come first, as for the variants' names.
const KNOWN_OPTIONS = ['draw_turns', 'width', 'height', 'connect', 'bombs', 'misere', 'superbomb'];

/** An option's name and help in the page's language. */
export function optionWords(o) {
  const known = KNOWN_OPTIONS.includes(o.name) && language() !== 'en';
  return {
    name: known ? t(`option.${o.name}`) : humanize(o.name),
    help: known ? t(`option.${o.name}.help`) : (o.description ?? o.help ?? ''),
  };
}

/**
 * The input of one variant option (a spec of welcome's `options`): a checkbox for a boolean, a
 * whole number otherwise, labelled with its name and titled with its help. `described`: the help
 * shown under it too, and the input marked with its type (the New game form reads it).
 */
export function optionInput(o, id, value, { described = false } = {}) {
  const { name, help } = optionWords(o);
  const note = described && help ? h('small.muted', {}, help) : null;
  if (o.type === 'bool') {
    const box = { type: 'checkbox', id, name: o.name, checked: !!value };
    if (described) box.dataset = { type: 'bool' };
    return h('label.check', { title: help }, h('input', box), h('span', {}, name), note);
  }
  const num = { type: 'number', id, name: o.name, min: o.min, max: o.max, step: 1, value, inputmode: 'numeric' };
  if (described) num.dataset = { type: 'int' };
  return h('label.field.num', { title: help }, h('span', {}, name), h('input', num), note);
}
