// Who this browser plays as, in the top bar: "Guest" (or nobody yet) with a menu to sign up
// (claim a name) or sign in, or the account's name, a link to its profile, with a menu of its
// sessions, Sign out and Sign out everywhere. Each form says the server's reason when it refuses
// (a name taken, a wrong password, too many tries). All of it hides on a server without players.

import { language, t } from './i18n.js';
import { $, h, toast } from './ui.js';
import { app, subscribe } from './store/store.js';
import { profilePath, sessions, signIn, signOut, signOutEverywhere, signUp, loadMe } from './account.js';

function render() {
  const box = $('#account');
  box.hidden = app.accounts !== true || app.offline;
  if (box.hidden) return;
  const me = app.me;
  const account = me && !me.guest && me.name;
  const name = $('#account-name');
  name.textContent = account ? me.name : t('html.guest');
  if (account) name.setAttribute('href', profilePath(me.name));
  else name.removeAttribute('href');
  name.classList.toggle('guest', !account);
  name.title = account ? t('html.your_profile') : me ? t('account.guest_title') : t('account.not_signed_in');
  $('#account-summary-text').textContent = account ? t('account.account') : t('html.sign_in');
  $('#account-guest').hidden = !!account;
  $('#account-signed-in').hidden = !account;
  $('#account-profile').setAttribute('href', account ? profilePath(me.name) : '/leaderboard');
  $('#account-who').textContent = account ? me.name : '';
  if (account && $('#account-menu').open) loadSessions();
}

/** Which of the two forms shows: 'signup' or 'signin'. */
function showForm(which) {
  $('#signup-form').hidden = which !== 'signup';
  $('#signin-form').hidden = which !== 'signin';
  $(which === 'signup' ? '#signup-name' : '#signin-name').focus();
}

function formError(form, text) {
  const el = form.querySelector('.form-error');
  el.textContent = text ?? '';
  el.hidden = !text;
}

/** Sends a form's name and password with `fn`; on success the form is cleared and the menu closed. */
async function submit(form, fn, welcome) {
  const name = form.querySelector('input[name=name]').value.trim();
  const password = form.querySelector('input[name=password]').value;
  const button = form.querySelector('button[type=submit]');
  formError(form, null);
  button.disabled = true;
  try {
    const r = await fn(name, password);
    if (!r.ok) {
      formError(form, r.message);
      form.querySelector(r.error === 'bad_password' ? 'input[name=password]' : 'input[name=name]').focus();
      return;
    }
    form.reset();
    $('#account-menu').open = false;
    toast(welcome(app.me?.name ?? name), 'ok');
  } finally {
    button.disabled = false;
  }
}

$('#signup-form').addEventListener('submit', (e) => {
  e.preventDefault();
  submit(e.currentTarget, signUp, (n) => t('account.welcome', { name: n }));
});
$('#signin-form').addEventListener('submit', (e) => {
  e.preventDefault();
  submit(e.currentTarget, signIn, (n) => t('account.signed_in', { name: n }));
});
$('#to-signin').addEventListener('click', () => showForm('signin'));
$('#to-signup').addEventListener('click', () => showForm('signup'));

async function out(fn, done) {
  const r = await fn();
  if (!r.ok) {
    toast(r.message, 'error');
    return;
  }
  $('#account-menu').open = false;
  toast(done, 'ok');
}
$('#sign-out').addEventListener('click', () => out(signOut, t('account.signed_out')));
$('#sign-out-all').addEventListener('click', () => out(signOutEverywhere, t('account.signed_out_all')));

/** A session's browser in words, from its User-Agent: "Firefox on Linux"; else the text itself. */
function browserName(label) {
  const ua = String(label ?? '');
  const browser = [
    [/Edg\//, 'Edge'],
    [/OPR\//, 'Opera'],
    [/Firefox\//, 'Firefox'],
    [/Chrom(e|ium)\//, 'Chrome'],
    [/Safari\//, 'Safari'],
  ].find(([re]) => re.test(ua))?.[1];
  const os = [
    [/Android/, 'Android'],
    [/iPhone|iPad/, 'iOS'],
    [/Windows/, 'Windows'],
    [/Mac OS X|Macintosh/, 'macOS'],
    [/CrOS/, 'ChromeOS'],
    [/Linux/, 'Linux'],
  ].find(([re]) => re.test(ua))?.[1];
  if (browser) return os ? t('account.browser_on', { browser, os }) : browser;
  return ua || t('account.a_browser');
}

const seen = (ms) => new Date(ms).toLocaleString(language(), { dateStyle: 'medium', timeStyle: 'short' });

async function loadSessions() {
  const list = $('#session-list');
  const r = await sessions();
  if (!r.ok) {
    list.replaceChildren(h('li.muted', {}, r.message));
    return;
  }
  const all = Array.isArray(r.data.sessions) ? r.data.sessions : [];
  list.replaceChildren(
    ...all.map((s) =>
      h(
        `li.session${s.current ? '.current' : ''}`,
        {},
        h('span.session-label', { title: s.label ?? '' }, browserName(s.label)),
        h(
          'small.muted',
          {},
          s.current ? `${t('account.this_browser')} · ` : '',
          t('account.signed_in_at', { when: seen(s.created_ms) }),
          s.seen_ms ? `, ${t('account.last_seen', { when: seen(s.seen_ms) })}` : '',
        ),
      ),
    ),
  );
}

const menu = $('#account-menu');
menu.addEventListener('toggle', () => {
  if (!menu.open) return;
  if (app.me && !app.me.guest) loadSessions();
  else if ($('#signup-form').hidden && $('#signin-form').hidden) showForm('signup');
});
// The menu closes with Escape (focus back on its button) and with a click elsewhere.
menu.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || !menu.open) return;
  menu.open = false;
  menu.querySelector('summary').focus();
});
document.addEventListener('click', (e) => {
  if (menu.open && e.target instanceof Node && !menu.contains(e.target)) menu.open = false;
});

const rated = (s) => Object.values(s?.players ?? {}).some((p) => p && 'rating_diff' in p);
const SHOWN = new Set(['got/me', 'got/welcome', 'net/offline', 'want/server']);
subscribe((actions) => {
  if (actions.some((a) => SHOWN.has(a.type))) render();
  // A rated game that ends moves our ratings: the pools' buttons show them.
  if (app.me && actions.some((a) => a.type === 'got/state' && rated(a.state) && !rated(a.prev))) loadMe();
});
