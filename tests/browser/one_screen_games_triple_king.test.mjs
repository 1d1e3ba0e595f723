// One screen, a whole game of triple-king checkers (one_screen_games.mjs).
import { wholeGames } from './one_screen_games.mjs';

wholeGames(['triple_king']);
