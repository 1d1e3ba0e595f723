// The wiring: the parts of the page, each in its module, joined to the connection and started.
// Every move sent is an object taken unchanged from the server's `legal` list; the page never
// decides a rule.
//
//   store/          the client's state: three slices (session, game, view) that only `dispatch` of an
//                   action changes (a server's message, a request sent, a user's intent); `app`
//                   reads them, and game_view.js subscribes to draw
//   context.js      the canvas, board view and connection, and questions about the latest state
//   connection.js   the server's messages about the room (welcome, joined, notices, errors)
//   game_state.js   taking in a state: the move list and the history behind it
//   game_view.js    drawing the game screen; the board's layout
//   player_cards.js the players' cards above and below the board
//   one_screen.js   two people at one screen: the words for the side to move, turning the board
//   input.js        what a click, a drag or a key means
//   controls.js     the game's buttons and chat
//   replay_view.js  looking back over a game
//   export.js       the record, PDN and the Kaboom text record, the move list as text
//   move_list.js    the move list beside the board
//   notation_view.js  the notation picked for a variant (notation.js): edges, Gamesman line
//   lobby.js        the start screen and the routes
//   account.js      who this browser plays as (a guest, an account): the calls that change it, and
//                   the new socket after each; account_menu.js the top bar's menu of it
//   pools.js        quick pairing: the start screen's pools, waiting in one, going to the game
//   profile.js      a player's page (/@/{name}), with rating_chart.js; leaderboard.js /leaderboard
//   seat_pick.js    its "Play as": a side, random, or both sides on this screen (a name each)
//   time_control.js a clock's time control in words, and its choice on the start screen
//   server_time.js  the server's time and our lag, from ping and pong
//   clocks.js       the two clocks and the first turns' countdown
//   premove.js      a move picked during the other side's turn, played when ours comes
//   takeback.js     taking a turn back: the button, the opponent's prompt, the state after it
//   sounds.js       the game's sounds (WebAudio) and the mute button
//   presence.js     the players' connections and lag, and the claim against one who left
//   values_view.js  the Values toggle: the position's value in words, the turns' colours on the
//                   board (board_values.js), the Hints used badge; values.js asks the server
//   value_chart.js  the chart of a finished (or replayed) game's values under the move list
//   editor.js       the analysis board (/analysis): setting up a position, its text, its check
//   editor_board.js   its canvas (a BoardView with the turns' values drawn on it)
//   editor_state.js   what its parts share, and the `analyse` of a position
//   explore.js        playing on from the position with the server's values of every turn
//   engine.js         the rules core as WebAssembly (engine/core.wasm): the position after a turn
//   editor_play.js    "Play from here" (create with the position), "Analyse this position"
//   position_text.js  positions as text: the CLI's FEN-like line, Kaboom's Gamesman string

import { mountPicker, t } from './i18n.js'; // first: index.html's words are in place before any view draws
import { $ } from './ui.js';
import { app } from './store/store.js';
import { saved } from './store/saved.js';
import { board, net, netEvents } from './context.js';
import { onDown, onMessage, onOpen, setConn } from './connection.js';
import { route } from './lobby.js';
import { played as sounds } from './sounds.js';
import { loadMe } from './account.js';
// Modules whose buttons and keys are wired when they load.
import './game_view.js';
import './input.js';
import './controls.js';
import './replay_view.js';
import './export.js';
import './editor.js';
import './editor_play.js';
import './account_menu.js';
import './keyboard.js';
import './announce.js';

Object.assign(netEvents, { message: onMessage, open: onOpen, down: onDown });

// Tests and the curious can look at the client's view of things.
window.bombcheckers = { app, board, net, sounds, receive: (msg) => onMessage(msg) };

// The page, its rules core and its offline server kept in the browser (web/sw.js): it opens, and
// plays on one screen and against the computer, with the server gone.
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('/sw.js').catch(() => {
    /* no service worker (a private window, an http address other than localhost): online only */
  });
}

$('#create-name').value = saved.name;
mountPicker($('.topbar-end'));
setConn(false, t('conn.connecting'));
net.start();
loadMe(); // whether the server has players, and who this browser is
route();
