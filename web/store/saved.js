// What this browser remembers between visits (localStorage): the player's names and settings, and
// the seat held in each room, by the room's id. The client's state in the page is the store's
// (store.js).

/** Room ids are case-insensitive and the server's are upper-case: "k7qf2m " from a link or the
 *  join box must find the seat saved under "K7QF2M". */
export const normRoom = (room) =>
  String(room ?? '')
    .trim()
    .toUpperCase();

/** The room in a link's path segment, or null when its %-escapes are broken (a link cut short). */
export function decodeRoom(segment) {
  try {
    return normRoom(decodeURIComponent(segment));
  } catch {
    return null;
  }
}

export const saved = {
  get name() {
    return localStorage.getItem('bc.name') ?? '';
  },
  set name(v) {
    localStorage.setItem('bc.name', v);
  },
  get ai() {
    try {
      const v = JSON.parse(localStorage.getItem('bc.ai') ?? 'null');
      return v && typeof v === 'object' ? v : { on: false, level: null };
    } catch {
      return { on: false, level: null };
    }
  },
  set ai(v) {
    localStorage.setItem('bc.ai', JSON.stringify(v));
  },
  /** The second player's name at one screen ("both sides on this screen"). */
  get name2() {
    return localStorage.getItem('bc.name2') ?? '';
  },
  set name2(v) {
    localStorage.setItem('bc.name2', v);
  },
  /** At one screen: whether the board turns so that the side to move is at the bottom. */
  get turnBoard() {
    return localStorage.getItem('bc.turnBoard') === '1';
  },
  set turnBoard(v) {
    localStorage.setItem('bc.turnBoard', v ? '1' : '0');
  },
  get muted() {
    return localStorage.getItem('bc.muted') === '1';
  },
  set muted(v) {
    localStorage.setItem('bc.muted', v ? '1' : '0');
  },
  /** The notation picked for a variant's games (notation.js), or null for its default. */
  notation(variant) {
    return localStorage.getItem(`bc.notation.${variant}`);
  },
  setNotation(variant, id) {
    localStorage.setItem(`bc.notation.${variant}`, id);
  },
  seat(room) {
    try {
      const v = JSON.parse(localStorage.getItem(`bc.seat.${normRoom(room)}`) ?? 'null');
      return v && typeof v.token === 'string' ? v : null;
    } catch {
      return null;
    }
  },
  /** `oneScreen`: the token holds both seats (a one-screen room). */
  saveSeat(room, token, seat, oneScreen = false) {
    const v = { token, seat, at: Date.now() };
    if (oneScreen) v.oneScreen = true;
    localStorage.setItem(`bc.seat.${normRoom(room)}`, JSON.stringify(v));
  },
  dropSeat(room) {
    localStorage.removeItem(`bc.seat.${normRoom(room)}`);
  },
};
