/**
 * The pre-count: how many JUMBF boxes and C2PA assertions an image's manifest stores hold, and how
 * deep they nest, read from box headers alone before the store is handed to a verifier. A store
 * far beyond what real services sign is refused here (`unreadable`), at the cost of a walk that
 * stops at the first limit passed, instead of costing the verifier its whole time limit.
 *
 * Why: c2pa-rs's work grows faster than the assertions do. Measured with @contentauth/c2pa-wasm on
 * stores signed by its own builder (tests/support/c2pa-crowded.ts makes their shape): 1,000
 * assertions verify in about half a second, 2,000 in about 4 s, 4,000 in about 14 s and 8,000
 * (1.4 MB) in about 50 s. The stores real services sign hold a handful of assertions (an action
 * list, a hash, a thumbnail, an ingredient or two): a few dozen at the very most.
 */
import type { ImageFormat } from '../../ports/image-engine';
import { boxHeader } from '../images';
import { storeParts } from './store-parts';

/** Assertions (the boxes of an assertion store) one image's stores may hold in all. */
export const MAX_STORE_ASSERTIONS = 1_000;
/** JUMBF boxes, at any depth, one image's stores may hold in all (an assertion is about 3). */
export const MAX_STORE_BOXES = 5_000;
/** Superboxes inside superboxes (a real store nests 4 deep: store, manifest, assertions, one). */
export const MAX_STORE_DEPTH = 16;

/** Which limit a store passed (for the log), or `parts`: its container has too many pieces. */
export type StoreExcess = 'boxes' | 'assertions' | 'depth' | 'parts';

interface Count {
  boxes: number;
  assertions: number;
}

interface Level {
  at: number;
  readonly end: number;
  readonly depth: number;
  /** This superbox is an assertion store: each superbox in it is an assertion. */
  readonly assertions: boolean;
}

/** The assertion store's JUMBF type starts `c2as`; its label is `c2pa.assertions`. */
const ASSERTION_STORE_TYPE = 'c2as';
const ASSERTION_STORE_LABEL = 'c2pa.assertions';
/** jumd toggles: bit 1 says a label follows the type and toggles. */
const HAS_LABEL = 0x02;

/** Whether the superbox whose content starts at `at` describes itself as an assertion store. */
function describesAssertions(store: Uint8Array, at: number, end: number): boolean {
  const description = boxHeader(store, at);
  if (description?.type !== 'jumd') return false;
  const typeAt = at + description.headerBytes;
  if (typeAt + 17 > end) return false;
  if (String.fromCharCode(...store.subarray(typeAt, typeAt + 4)) === ASSERTION_STORE_TYPE) {
    return true;
  }
  if (((store[typeAt + 16] ?? 0) & HAS_LABEL) === 0) return false;
  const labelAt = typeAt + 17;
  const label = store.subarray(labelAt, Math.min(end, labelAt + ASSERTION_STORE_LABEL.length + 1));
  return String.fromCharCode(...label) === `${ASSERTION_STORE_LABEL}\0`;
}

/** The next box of `level`, counted; a new level when it is a superbox; false when it ends. */
function step(store: Uint8Array, level: Level, count: Count): Level | false | null {
  const start = level.at;
  if (start + 8 > level.end) return false;
  const header = boxHeader(store, start);
  if (!header || start + header.headerBytes > level.end) return false;
  const length = header.length === 0 ? level.end - start : header.length;
  const end = start + length;
  if (length < header.headerBytes || end > level.end) return false;
  count.boxes += 1;
  if (level.assertions && header.type === 'jumb') count.assertions += 1;
  level.at = end;
  if (header.type !== 'jumb') return null;
  const at = start + header.headerBytes;
  return { at, end, depth: level.depth + 1, assertions: describesAssertions(store, at, end) };
}

/** Walks one store's boxes until it ends or passes a limit (which is then returned). */
function walk(store: Uint8Array, count: Count): StoreExcess | null {
  const levels: Level[] = [{ at: 0, end: store.length, depth: 0, assertions: false }];
  for (let level = levels.at(-1); level; level = levels.at(-1)) {
    const next = step(store, level, count);
    if (count.boxes > MAX_STORE_BOXES) return 'boxes';
    if (count.assertions > MAX_STORE_ASSERTIONS) return 'assertions';
    if (next === false) levels.pop();
    else if (next) {
      if (next.depth > MAX_STORE_DEPTH) return 'depth';
      levels.push(next);
    }
  }
  return null;
}

/**
 * The limit the manifest stores in `bytes` (an image of `format`) pass, or `null` when they are
 * within every limit (or there is none). Never throws; the work is bounded by the limits.
 */
export function storeExcess(bytes: Uint8Array, format: ImageFormat): StoreExcess | null {
  const stores = storeParts(bytes, format);
  if (stores === null) return 'parts';
  const count: Count = { boxes: 0, assertions: 0 };
  for (const store of stores) {
    const excess = walk(store, count);
    if (excess) return excess;
  }
  return null;
}
