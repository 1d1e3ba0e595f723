// Español (tuteo): the same keys as en.js, in the same parts.
import page from './es/page.js';
import play from './es/play.js';
import game from './es/game.js';
import screens from './es/screens.js';

export default { ...page, ...play, ...game, ...screens };
