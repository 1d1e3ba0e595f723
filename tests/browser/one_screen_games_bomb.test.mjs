// One screen, a whole game each: Bomb checkers and Kaboom (one_screen_games.mjs).
import { wholeGames } from './one_screen_games.mjs';

wholeGames(['kaboom', 'bomb']);
