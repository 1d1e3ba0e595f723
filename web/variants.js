// What kind of game each variant is, as the server's welcome says (PROTOCOL.md: a variant's
// `family`): "checkers" (pieces that step and jump on the 8x8 board) or "connect" (Kaboom-like:
// drops into columns, bombs detonated). The page draws and plays a variant by its family, never by
// its id. Pure and without imports, so that the position and notation helpers (and their node
// tests) ask it too.

// Until a welcome comes (an old server's has no `family`: its `notation` tells, "text" being the
// connect family's record), the families of the variants this page was made with.
const families = new Map([
  ['bomb', 'checkers'],
  ['classic', 'checkers'],
  ['triple_king', 'checkers'],
  ['kaboom', 'connect'],
]);

/** Takes the welcome's variants: each one's family from then on. */
export function learnVariants(variants = []) {
  for (const v of variants) {
    if (!v?.id) continue;
    families.set(v.id, v.family ?? (v.notation === 'text' ? 'connect' : 'checkers'));
  }
}

/** "checkers" or "connect"; a variant never heard of is drawn as checkers. */
export const familyOf = (variant) => families.get(variant) ?? 'checkers';

/** Whether pieces are dropped into columns (Kaboom and its kind), rather than moved. */
export const isConnect = (variant) => familyOf(variant) === 'connect';
