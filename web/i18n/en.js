// English: the source catalogue, in parts by screen (en/*.js). Every key of the page is here, and de.js and
// es.js have the same keys (tests/browser/i18n.test.mjs). A key is `area.name`; {name} is a placeholder;
// `key.one` / `key.other` are the plural forms of `key`, picked by t(key, {count}).
import page from './en/page.js';
import play from './en/play.js';
import game from './en/game.js';
import screens from './en/screens.js';

export default { ...page, ...play, ...game, ...screens };
