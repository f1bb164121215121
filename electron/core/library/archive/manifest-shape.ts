/**
 * One pass over a manifest's text before it is parsed, so what JSON.parse builds and the schema
 * then walks is bounded by the shape of a Pictor manifest, not by what a crafted one holds. That
 * shape: an object (depth 1) of a few fields, one of them the entries' array (depth 2) of flat
 * objects (depth 3) of a few fields each. The pass keeps one counter per depth and allocates
 * nothing; a manifest nested deeper, with more members in an object than any of the schema's, with
 * more entries than allowed, or with a second long list beside the entries is refused before
 * JSON.parse sees it. What JSON.parse may build is then bounded by the entries allowed: at most
 * {@link MAX_MEMBERS} values each, and a few hundred besides (without the one-long-list rule, seven
 * lists of a quarter of a million entries fit in the byte cap: 28 million values, over a second
 * of the main thread and hundreds of megabytes).
 */

/** Why a manifest's text is not shaped like a manifest: too `deep`, an object too `wide`, too `many` entries. */
export type ShapeProblem = 'deep' | 'wide' | 'many';

/** Depth of the entries' objects: the deepest a manifest goes. */
const MAX_DEPTH = 3;
/** Members of the manifest's object or of one entry: a few more than the schema's five. */
const MAX_MEMBERS = 16;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const isOpener = (code: number) => code === 0x5b || code === 0x7b;
const isCloser = (code: number) => code === 0x5d || code === 0x7d;
const isBlank = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/** Where the string opened at `start` closes (the text's end when it never does). */
function closingQuote(text: string, start: number): number {
  for (let at = text.indexOf('"', start + 1); at >= 0; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes += 1;
    // An even run of backslashes escapes itself, not the quote.
    if (backslashes % 2 === 0) return at;
  }
  return text.length;
}

/**
 * Whether `text` keeps to a manifest's shape (see the file's comment); `null` when it does, or
 * when it is not JSON at all (JSON.parse then says so: invalid text is cheap to refuse).
 */
export function manifestShapeProblem(text: string, maxEntries: number): ShapeProblem | null {
  // Members so far (commas + 1 once one has begun) of the open container at each depth.
  const members = new Array<number>(MAX_DEPTH + 1).fill(0);
  let depth = 0;
  // Lists at depth 2 that grew past MAX_MEMBERS: only the entries may.
  let longLists = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (isBlank(code)) continue;
    if (isCloser(code)) {
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (code === COMMA) {
      if (depth > 0) members[depth] = (members[depth] ?? 0) + 1;
    } else if (depth > 0 && members[depth] === 0) {
      // The first member of the container begins.
      members[depth] = 1;
    }
    const count = members[depth] ?? 0;
    if (depth === 2 && count > maxEntries) return 'many';
    // Counted once per list, as it passes the bound.
    if (depth === 2 && count === MAX_MEMBERS + 1 && code === COMMA && ++longLists > 1)
      return 'wide';
    if (depth !== 2 && count > MAX_MEMBERS) return 'wide';
    if (code === QUOTE) i = closingQuote(text, i);
    else if (isOpener(code)) {
      if (depth === MAX_DEPTH) return 'deep';
      depth += 1;
      members[depth] = 0;
    }
  }
  return null;
}
