// Squares as the protocol gives them ([x, y]), for the board's modules and the page.

export const key = (sq) => `${sq[0]},${sq[1]}`;
export const same = (a, b) => !!a && !!b && a[0] === b[0] && a[1] === b[1];

/** A square given as [x,y] or {at:[x,y]}. */
export function asSquare(s) {
  if (Array.isArray(s)) return s;
  if (s && Array.isArray(s.at)) return s.at;
  return null;
}

/** Whether the actions `a` begin the actions `b`. */
export function isPrefix(a, b) {
  if (a.length > b.length) return false;
  return a.every((x, i) => JSON.stringify(x) === JSON.stringify(b[i]));
}
