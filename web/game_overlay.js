// The card over the board: a game that waits for its opponent (the link and its QR code), a
// finished game's result with Rematch and Replay, and what the computer or a one-screen room says
// then. Rebuilt only when what it says changes, so that its entrance animation plays once.

import { t } from './i18n.js';
import { qrImage } from './qr.js';
import { $, h, icon, resultText, sideName } from './ui.js';
import { app, dispatch } from './store/store.js';
import { aiLevelName, atOneScreen, isPlayer } from './context.js';
import { askRematch, copyLink, shareLink } from './controls.js';
import { rematchNote, winnerTitle } from './one_screen.js';
import { openReplay } from './replay_view.js';

let overlayKey = '';
/** The overlay is built anew at the next render (what it shows changed outside the state). */
export function forgetOverlay() {
  overlayKey = '';
}
export function renderOverlay(s, sides) {
  const ov = $('#board-overlay');
  // Rebuilt only when what it says changes, so its entrance animation plays once.
  const k = JSON.stringify([
    s.room,
    s.status,
    s.result,
    app.leftSide,
    app.seat,
    app.url,
    app.invite?.share,
    app.rematchAsked,
    app.rematchFrom,
    app.overlayClosed,
    !!app.replay,
    app.aiRequested,
    app.replaced,
    app.oneScreen,
  ]);
  if (k === overlayKey) return;
  overlayKey = k;
  if (app.replay) {
    ov.hidden = true;
    return;
  }
  const closeBtn = () =>
    h(
      'button.icon-btn.close',
      {
        type: 'button',
        'aria-label': t('overlay.close'),
        onclick: () => {
          dispatch({ type: 'want/close_overlay' });
        },
      },
      '×',
    );
  if (s.status === 'waiting' && isPlayer() && app.aiRequested && app.ai.advertised && !app.overlayClosed) {
    ov.replaceChildren(
      h(
        'div.overlay-card',
        {},
        h('h2', {}, h('span.spinner', { 'aria-hidden': 'true' }), ` ${t('overlay.computer_sitting')}`),
        h('p.muted', {}, t('overlay.level', { name: aiLevelName(app.aiRequested) })),
      ),
    );
    ov.hidden = false;
    return;
  }
  if (s.status === 'waiting' && isPlayer() && !app.overlayClosed) {
    const link = shareLink();
    const input = h('input.link', { readonly: true, value: link, 'aria-label': t('overlay.link') });
    input.addEventListener('focus', () => input.select());
    // A phone on the same network joins by scanning; the image waits for the LAN address.
    const qr = app.invite?.room === s.room ? qrImage(link, { size: 168, alt: t('overlay.qr_alt', { link }) }) : null;
    if (qr) qr.id = 'invite-qr';
    ov.replaceChildren(
      h(
        'div.overlay-card.invite',
        {},
        closeBtn(),
        h('h2', {}, t('overlay.waiting')),
        h('p', {}, app.aiRequested ? t('overlay.no_computer') : t('overlay.send_link')),
        h(
          'div.link-row',
          {},
          input,
          h(
            'button.btn.primary',
            { type: 'button', onclick: copyLink, 'aria-label': t('overlay.copy_link') },
            t('html.copy'),
          ),
        ),
        qr ? h('figure.invite-qr', {}, qr, h('figcaption.muted.small', {}, t('overlay.scan'))) : null,
        h('p.muted.small', {}, `${t('game.room_code')} `, h('strong', {}, s.room)),
      ),
    );
    ov.hidden = false;
    return;
  }
  if (s.status === 'finished' && !app.overlayClosed) {
    const opt = s.options ?? {};
    const here = atOneScreen();
    // At one screen the winner is one of the two people here: named, and in gold.
    const won = s.result?.winner && isPlayer() ? here || s.result.winner === app.seat : null;
    const title =
      s.result?.reason === 'aborted'
        ? t('short.aborted')
        : !s.result?.winner
          ? t('short.draw')
          : here
            ? winnerTitle(s)
            : won === true
              ? t('overlay.you_win')
              : won === false
                ? t('overlay.you_lose')
                : t('short.wins', { W: sideName(s.result.winner) });
    // Just finished in front of us: let the last move's animation play before covering the board.
    const live = app.finishedLive;
    if (live) dispatch({ type: 'view/result_shown' });
    ov.replaceChildren(
      h(
        `div.overlay-card.result${won === true ? '.won' : ''}${live ? '.delayed' : ''}`,
        {},
        closeBtn(),
        h('h2', {}, title),
        h('p', {}, resultText(s.result, sides, s.connect ?? opt.connect ?? 4, !!opt.misere, app.leftSide)),
        app.rematchFrom?.length && !app.rematchAsked
          ? h('p.small', {}, t('overlay.would_rematch', { side: sideName(app.rematchFrom[0]) }))
          : null,
        here ? h('p.small.muted', {}, rematchNote(s)) : null,
        h(
          'div.overlay-buttons',
          {},
          s.version > 0
            ? h(
                'button.btn',
                { type: 'button', onclick: () => openReplay(0), 'aria-label': t('overlay.replay_title') },
                icon('play'),
                ` ${t('html.replay')}`,
              )
            : null,
          isPlayer()
            ? h(
                'button.btn.primary',
                { type: 'button', onclick: askRematch, disabled: app.rematchAsked || app.replaced },
                app.rematchAsked ? t('game.rematch_asked') : `↻ ${t('html.rematch')}`,
              )
            : null,
        ),
      ),
    );
    ov.hidden = false;
    return;
  }
  ov.hidden = true;
}
