// One screen, a whole game of classic checkers (one_screen_games.mjs).
import { wholeGames } from './one_screen_games.mjs';

wholeGames(['classic']);
