// One screen, a whole game each: classic and triple-king checkers (one_screen_games.mjs).
import { wholeGames } from './one_screen_games.mjs';

wholeGames(['classic', 'triple_king']);
