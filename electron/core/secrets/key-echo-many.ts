/**
 * Which of many short texts (a library's task ids: a sweep of a million of them) carry a key, as
 * {@link carriesKey} would say of each alone, for a fraction of its cost: a search of one short
 * text is mostly the building of its views, so texts are searched joined, some thousands at a
 * time, and only those a found echo touches are searched again alone.
 *
 * Joined texts are searched as each would be alone only when nothing in them reads across the
 * joint: a plain text (letters, digits, spaces and the punctuation of ids: no escape's start
 * `\`, `%` or `&`, no quote, nothing invisible or outside ASCII), joined by `|`, which is no digit
 * of base64 or hex (a run of them is decoded from its start, at each alignment, as alone) and no
 * part of an escape. The spaced view (key-echo-spaced.ts) does read across a joint (`|` is no
 * letter): an echo across a joint names both texts, and each is searched again alone, so what is
 * found is exactly what each search alone finds. Any other text is searched alone.
 */
import { carriesKey, findKeyEchoes, type SecretKeys } from './key-echo';

const PLAIN = /^[A-Za-z0-9 ._:/+=~,;@#!?*()[\]{}<>^$'`-]*$/;
const JOINT = '|';
/** Characters searched in one joined text: some thousands of ids, a few milliseconds. */
const JOINED_CHARS = 1 << 17;

/** The positions in `texts` of those that carry a run of any of `keys` (see the module comment). */
export function keyCarriers(texts: readonly string[], keys: SecretKeys): number[] {
  const found = new Set<number>();
  let batch: number[] = [];
  let chars = 0;
  const search = (): void => {
    searchJoined(texts, batch, keys, found);
    batch = [];
    chars = 0;
  };
  for (const [at, text] of texts.entries()) {
    if (!PLAIN.test(text)) {
      if (carriesKey(text, keys)) found.add(at);
      continue;
    }
    batch.push(at);
    chars += text.length + 1;
    if (chars >= JOINED_CHARS) search();
  }
  if (batch.length > 0) search();
  return [...found].sort((a, b) => a - b);
}

function searchJoined(
  texts: readonly string[],
  batch: readonly number[],
  keys: SecretKeys,
  found: Set<number>,
): void {
  const starts: number[] = [];
  let offset = 0;
  for (const at of batch) {
    starts.push(offset);
    offset += (texts[at] ?? '').length + JOINT.length;
  }
  const joined = batch.map((at) => texts[at] ?? '').join(JOINT);
  for (const [start, end] of findKeyEchoes(joined, keys)) {
    for (let n = lastAtOrBefore(starts, start); n < batch.length; n += 1) {
      const at = batch[n] ?? 0;
      if ((starts[n] ?? end) >= end) break;
      if (!found.has(at) && carriesKey(texts[at] ?? '', keys)) found.add(at);
    }
  }
}

/** The index of the last of the sorted `starts` at or before `offset`. */
function lastAtOrBefore(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}
