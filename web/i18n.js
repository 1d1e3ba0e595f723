// The page's words in the reader's language: message catalogues (i18n/en.js, de.js, es.js, each a
// flat key → string object) and t(key, params). The language is the one picked on the page
// (remembered in localStorage), else the first of the browser's languages we have, else English.
// A key missing from a catalogue falls back to English, then to the key itself.
//
// Static text of index.html is marked data-i18n (text), data-i18n-aria-label, data-i18n-title and
// data-i18n-placeholder; applyStatic() fills them. Changing the language reloads the page, so every
// view draws itself again in the new words. README.md, "Adding a language", says how to add one.

import en from './i18n/en.js';
import de from './i18n/de.js';
import es from './i18n/es.js';

/** The languages offered, by code: their own name and their catalogue. */
export const LANGUAGES = {
  en: { name: 'English', strings: en },
  de: { name: 'Deutsch', strings: de },
  es: { name: 'Español', strings: es },
};

const STORE_KEY = 'bc.lang';

function stored() {
  try {
    return localStorage.getItem(STORE_KEY);
  } catch {
    return null; // storage refused (a sandboxed frame)
  }
}

/** The language to use: the picked one, else the browser's first we have, else English. */
export function pickLanguage(saved = stored(), wanted = globalThis.navigator?.languages ?? []) {
  if (saved && LANGUAGES[saved]) return saved;
  for (const tag of wanted) {
    const code = String(tag).toLowerCase().split('-')[0];
    if (LANGUAGES[code]) return code;
  }
  return 'en';
}

let lang = pickLanguage();
let plurals = new Intl.PluralRules(lang);

/** The language in use ('en', 'de', 'es'). */
export const language = () => lang;

/**
 * The words of `key` with `{name}` placeholders filled from `params`. With `params.count`, a key
 * that has plural forms (`key.one`, `key.other`, ...) picks the form of the language's rules.
 */
export function t(key, params = {}) {
  const cat = LANGUAGES[lang].strings;
  let k = key;
  if (typeof params.count === 'number' && !(key in en)) {
    const form = `${key}.${plurals.select(params.count)}`;
    k = form in cat || form in en ? form : `${key}.other`;
  }
  const text = cat[k] ?? en[k] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** A side's name ("Fire", "Feuer"); an unknown side as it came. */
export function sideWord(side) {
  if (!side) return '';
  const k = `side.${side}`;
  return k in en ? t(k) : side[0].toUpperCase() + side.slice(1);
}

/** An error the server sent, in the catalogue's words when its code has them, else its own. */
export function errorText(code, message) {
  const k = `err.${code}`;
  if (k in en && (lang !== 'en' || !message)) return t(k);
  return message || t('err.unknown');
}

/** Fills the marked static text under `root` in the current language. */
export function applyStatic(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const attr of ['aria-label', 'title', 'placeholder']) {
    const data = `data-i18n-${attr}`;
    for (const el of root.querySelectorAll(`[${data}]`)) el.setAttribute(attr, t(el.getAttribute(data)));
  }
}

/** Remembers `code` as this browser's language and shows the page in it. */
export function setLanguage(code) {
  if (!LANGUAGES[code] || code === lang) return;
  try {
    localStorage.setItem(STORE_KEY, code);
  } catch {
    /* not remembered: this page only */
  }
  location.reload();
}

/** The language picker: a labelled <select> of LANGUAGES in `host`. */
export function mountPicker(host) {
  const label = document.createElement('label');
  label.className = 'lang-pick';
  const span = document.createElement('span');
  span.className = 'sr-only';
  span.textContent = t('lang.label');
  const sel = document.createElement('select');
  sel.id = 'lang';
  sel.title = t('lang.label');
  for (const [code, { name }] of Object.entries(LANGUAGES)) {
    const opt = document.createElement('option');
    opt.value = code;
    opt.lang = code;
    opt.textContent = name;
    sel.append(opt);
  }
  sel.value = lang;
  sel.addEventListener('change', () => setLanguage(sel.value));
  label.append(span, sel);
  host.append(label);
}

if (typeof document !== 'undefined') {
  document.documentElement.lang = lang;
  plurals = new Intl.PluralRules(lang);
  if (lang !== 'en') applyStatic();
}
