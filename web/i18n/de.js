// Deutsch (Sie-Form): the same keys as en.js, in the same parts.
import page from './de/page.js';
import play from './de/play.js';
import game from './de/game.js';
import screens from './de/screens.js';

export default { ...page, ...play, ...game, ...screens };
