// The server's check of a position set up on the analysis board (an `analyse` without its moves):
// whether the rules accept it and, if so, its value, asked 400 ms after the last change.

import { t } from './i18n.js';
import { edCanvas, say, setValue, unsay } from './editor_board.js';
import { analyse, ed, positionWords, refusal } from './editor_state.js';
import { valueColour } from './values.js';

let checkSeq = 0;
let checkTimer = 0;

export function scheduleCheck() {
  clearTimeout(checkTimer);
  const seq = ++checkSeq;
  setValue(t('ed.checking'));
  checkTimer = setTimeout(() => runCheck(seq), 400);
}

async function runCheck(seq) {
  if (ed.mode !== 'setup') return;
  const pos = ed.pos;
  try {
    const a = await analyse(pos, false);
    if (seq !== checkSeq || ed.mode !== 'setup') return;
    unsay('check');
    setValue(positionWords(a), valueColour(a.value));
    edCanvas.dataset.valid = 'true';
  } catch (err) {
    if (seq !== checkSeq || ed.mode !== 'setup') return;
    setValue('');
    if (err?.code === 'rate_limited' || err?.code === 'offline' || err?.code === 'timeout') {
      // Not a word about the position: ask again in a while.
      say(`${err.message} ${t('ed.check_again')}`, 'info', 'check');
      checkTimer = setTimeout(() => runCheck(seq), 5000);
      return;
    }
    say(refusal(err), 'error', 'check');
    edCanvas.dataset.valid = 'false';
  }
}
