/**
 * What the page holds when main lists the same again, else what it listed. A library or a list of
 * settings is read again at every window focus and by each screen that shows it when first drawn
 * (the gallery's template filter, drawn in the background after start; Settings' prices, caps and
 * workflows), and a new copy of the same data redrew every part that reads it: the compose form's
 * template field and panel, its count, model and Generate, and its cost estimate (asked again of
 * main for the new prices). Main's answers are plain data checked by the contract's schema, so
 * comparing them as data says whether they are the same.
 */
export function sameAgain<T>(held: T, listed: T): T {
  return sameData(held, listed) ? held : listed;
}

/**
 * Whether two values main sent (JSON-like: plain objects, arrays, primitives) are alike, in any
 * key order; also the records table's test of the same task state sent again (records-table.ts).
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
  return keys.every((key) => Object.hasOwn(y, key) && sameData(x[key], y[key]));
}
