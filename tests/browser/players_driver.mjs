// The players' parts of the page (docs/PLAYERS.md) on driver.mjs's interface, for players.test.mjs
// and both/players.mjs: a server of the test's own (sign-ups are limited per address, five at once,
// so each file has its own; pools wave every 300 ms), the top bar's account menu, signing up and
// in, a pool pressed.
import { startServer } from './helpers.mjs';

/** A server of the file's own, with players and quick pools; resolves to {base, stop}. */
export function playersServer(args = []) {
  return startServer(['--memory', '--pool-wave-ms', '300', '--claim-after', '2', ...args]);
}

/** A name nobody has yet: `prefix` and six letters or digits (a name is 2 to 20 of them). */
export function uniqueName(prefix) {
  return `${prefix}${Math.random().toString(36).slice(2, 8).padEnd(6, '0')}`;
}

export const PASSWORD = 'pass-word-1';

/** Opens the top bar's account menu, once the page knows the server has players. */
export async function openAccountMenu(p) {
  await p.visible('#account-summary');
  if (!(await p.eval(() => document.querySelector('#account-menu').open))) await p.click('#account-summary');
}

/** Fills and sends the menu's Sign up (`which` 'signup') or Sign in ('signin') form. */
export async function sendAccountForm(p, which, name, password = PASSWORD) {
  await openAccountMenu(p);
  // The menu shows its first form from its toggle event, which comes after the click: until then
  // both forms are hidden, and the link to the other one (inside it) is not there to click.
  await p.waitFn(
    () => !document.querySelector('#signup-form').hidden || !document.querySelector('#signin-form').hidden,
  );
  if (await p.eval((w) => document.querySelector(`#${w}-form`).hidden, which)) {
    await p.click(which === 'signup' ? '#to-signup' : '#to-signin');
  }
  await p.fill(`#${which}-name`, name);
  await p.fill(`#${which}-password`, password);
  await p.click(`#${which}-btn`);
}

/** Waits until the top bar names `name`, a link to its profile, and a socket is open as it. */
export async function waitSignedIn(p, name) {
  await p.waitFn((n) => {
    const a = document.querySelector('#account-name');
    return a.textContent === n && a.getAttribute('href') === `/@/${n}` && window.bombcheckers.net.connected;
  }, name);
}

/** Signs up as `name` on the start page of `base`. */
export async function signUp(p, base, name) {
  await p.goto(`${base}/`);
  await sendAccountForm(p, 'signup', name);
  await waitSignedIn(p, name);
}

/** Presses pool `id` on the start screen and waits until the server counts us in it. */
export async function enterPool(p, id) {
  await p.click(`#pool-grid button[data-pool="${id}"]`);
  await p.waitText('#pool-wait-text', 'in the pool');
}
