/**
 * Finds the API key in text a server sent back, in whatever encoding it was echoed: as is, with
 * invisible characters between its letters, spelt out with spaces, line breaks or any other
 * separator between them (key-echo-spaced.ts), JSON `\uXXXX` escapes, `%XX` for every byte, HTML
 * entities, UTF-16 bytes, base64 or base64url (of the key or of `Bearer <key>`, at any byte
 * alignment), hex, or split across two JSON string values. Any run of {@link KEY_RUN} or more
 * consecutive characters of the key counts (a key cut short at a read limit still leaks its
 * first part). Detecting and scrubbing are one function, so they cannot disagree: text is
 * scrubbed where the finder found the key, then searched again.
 *
 * Linear in the text: each view of it (raw, unescaped, decoded as bytes at every alignment, the
 * JSON string values joined) is built in one pass and searched with a rolling hash.
 */
import { keyLetters, spacedView } from './key-echo-spaced';
import { type View, decodeBytes, joinedStringValues, rawView, unescaped } from './key-echo-views';

/** Consecutive characters of the key that count as an echo of it (or the whole of a shorter key). */
export const KEY_RUN = 12;
/** A key shorter than this would match ordinary words; such a key is refused by the service anyway. */
const MIN_KEY_LENGTH = 4;
/**
 * A key with fewer letters and digits than this is not looked for spelt out: `test-key` would be
 * found in `latest keys`. A key has a random part longer than that.
 */
const MIN_SPACED_LETTERS = 8;
export const REDACTED = '[redacted]';
/** What is left of a text whose key could not be scrubbed out after a few rounds. */
const WITHHELD_TEXT = '(withheld: it contained the API key)';

const BASE = 0x01000193;

/** ASCII letters folded to lower case: an echo in another case is still the key. */
function fold(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

/**
 * The runs of one or more keys of one run width, ready to be looked for together: one rolling
 * hash over a view finds the runs of every key held (a search is mostly this scan).
 */
class KeyRuns {
  readonly width: number;
  readonly #folded: number[][];
  /** Hash of a run → where such runs start, as `key index * 2^16 + start in the key`. */
  readonly #starts = new Map<number, number[]>();
  readonly #lead: number;
  /** A bit per low 16 bits of a run's hash: most positions are ruled out without a map lookup. */
  readonly #filter = new Uint8Array(0x10000);

  constructor(keys: readonly string[], width: number) {
    this.#folded = keys.map((key) => [...key].map((char) => fold(char.charCodeAt(0))));
    this.width = width;
    let lead = 1;
    for (let i = 1; i < width; i += 1) lead = Math.imul(lead, BASE);
    this.#lead = lead;
    for (const [index, folded] of this.#folded.entries())
      for (let start = 0; start + width <= folded.length; start += 1) {
        let hash = 0;
        for (let i = 0; i < width; i += 1)
          hash = (Math.imul(hash, BASE) + (folded[start + i] ?? 0)) | 0;
        this.#filter[hash & 0xffff] = 1;
        const list = this.#starts.get(hash) ?? [];
        list.push(index * 0x10000 + start);
        this.#starts.set(hash, list);
      }
  }

  /** Calls `found(i)` for every position of `view` where a run of a key begins. */
  scan(view: View, found: (at: number) => void): void {
    const { codes, length } = view;
    const width = this.width;
    const filter = this.#filter;
    const lead = this.#lead;
    if (length < width) return;
    let hash = 0;
    for (let i = 0; i < width; i += 1) hash = (Math.imul(hash, BASE) + fold(codes[i] ?? 0)) | 0;
    for (let at = 0; ; at += 1) {
      if (filter[hash & 0xffff] === 1) {
        const starts = this.#starts.get(hash);
        if (starts?.some((start) => this.#same(view, at, start))) found(at);
      }
      if (at + width >= length) return;
      hash = (hash - Math.imul(fold(codes[at] ?? 0), lead)) | 0;
      hash = (Math.imul(hash, BASE) + fold(codes[at + width] ?? 0)) | 0;
    }
  }

  #same(view: View, at: number, entry: number): boolean {
    const folded = this.#folded[Math.floor(entry / 0x10000)] ?? [];
    const start = entry % 0x10000;
    for (let i = 0; i < this.width; i += 1)
      if (fold(view.codes[at + i] ?? 0) !== folded[start + i]) return false;
    return true;
  }
}

/** `keys` looked for together, a {@link KeyRuns} per run width (a key shorter than a run is its own). */
function runsOf(keys: readonly string[]): KeyRuns[] {
  const byWidth = new Map<number, string[]>();
  for (const key of keys) {
    const width = Math.min(KEY_RUN, key.length);
    byWidth.set(width, [...(byWidth.get(width) ?? []), key]);
  }
  return [...byWidth].map(([width, same]) => new KeyRuns(same, width));
}

/** A stretch `[start, end)` of the original text. */
export type Span = readonly [start: number, end: number];

/** The stretches of the original text that the view's characters `[from, to)` came from. */
function spansOf(view: View, from: number, to: number, out: [number, number][]): void {
  if (view.bridged) {
    let start = view.from[from] ?? 0;
    for (let i = from + 1; i < to; i += 1) {
      if (!view.cuts?.has(i)) continue;
      out.push([start, view.to[i - 1] ?? 0]);
      start = view.from[i] ?? 0;
    }
    out.push([start, view.to[to - 1] ?? 0]);
    return;
  }
  // One stretch while each character follows the one before (overlapping it, next to it, or with
  // only dropped characters between): from the first one's start to the last one's end, never
  // over what was dropped before the first or after the last (a line break after the key).
  let current: [number, number] | null = null;
  for (let i = from; i < to; i += 1) {
    const start = view.from[i] ?? 0;
    const end = view.to[i] ?? 0;
    if (current && (start <= current[1] || view.follows(i))) current[1] = Math.max(current[1], end);
    else {
      current = [start, end];
      out.push(current);
    }
  }
}

function searchView(runs: KeyRuns, view: View, out: [number, number][]): void {
  let runFrom = -1;
  let runTo = -1;
  runs.scan(view, (at) => {
    if (at > runTo) {
      if (runFrom >= 0) spansOf(view, runFrom, runTo, out);
      runFrom = at;
    }
    runTo = at + runs.width;
  });
  if (runFrom >= 0) spansOf(view, runFrom, runTo, out);
}

/**
 * Every view of `text` the key is looked for in, each with whether it is the spaced one (looked
 * for by the key's letters and digits alone: key-echo-spaced.ts).
 */
function* viewsOf(text: string): Generator<readonly [View, boolean]> {
  yield [rawView(text), false];
  const sources = [unescaped(rawView(text))];
  const joined = joinedStringValues(text);
  if (joined) sources.push(unescaped(joined));
  for (const source of sources) {
    yield [source, false];
    for (const alignment of [0, 1, 2, 3]) yield [decodeBytes(source, 'base64', alignment), false];
    for (const alignment of [0, 1]) yield [decodeBytes(source, 'hex', alignment), false];
  }
  // The text as read, its escapes undone, and its values side by side (each scrubbed apart).
  for (const source of sources) yield [spacedView(source), true];
}

function merged(spans: [number, number][]): Span[] {
  spans.sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const span of spans) {
    const last = out[out.length - 1];
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else out.push([span[0], span[1]]);
  }
  return out;
}

/** The runs of a set of keys (`false`) and of their letters and digits alone (`true`). */
const compiled = new Map<string, readonly [KeyRuns[], KeyRuns[]]>();

function runsFor(keys: readonly string[]): readonly [KeyRuns[], KeyRuns[]] {
  // A key holds no whitespace (key-text.ts): a line feed joins a set into one name.
  const name = keys.join('\n');
  let runs = compiled.get(name);
  if (!runs) {
    // A handful of sets at most in a process (one key per service, a replaced one).
    if (compiled.size > 16) compiled.clear();
    const plain = keys.filter((key) => key.length >= MIN_KEY_LENGTH);
    const letters = plain.map(keyLetters).filter((held) => held.length >= MIN_SPACED_LETTERS);
    runs = [runsOf(plain), runsOf(letters)];
    compiled.set(name, runs);
  }
  return runs;
}

/**
 * One key, or several: the key a request sent with every other key the process holds (a service
 * may echo any key it learnt), each looked for in the same views of the text, built once.
 */
export type SecretKeys = string | readonly string[];

/** Where in `text` a run of any of `keys` appears, in any encoding this module knows; sorted, merged. */
export function findKeyEchoes(text: string, keys: SecretKeys): Span[] {
  const [plain, spaced] = runsFor(typeof keys === 'string' ? [keys] : keys);
  const width = Math.min(...plain.map((runs) => runs.width));
  if (plain.length === 0 || text.length < width) return [];
  const spans: [number, number][] = [];
  for (const [view, isSpaced] of viewsOf(text))
    for (const runs of isSpaced ? spaced : plain) searchView(runs, view, spans);
  return merged(spans);
}

/** `true` when `text` carries a run of any of `keys` in any encoding. */
export function carriesKey(text: string, keys: SecretKeys): boolean {
  return findKeyEchoes(text, keys).length > 0;
}

function replaced(text: string, spans: readonly Span[]): string {
  let out = '';
  let from = 0;
  for (const [start, end] of spans) {
    out += text.slice(from, start) + REDACTED;
    from = end;
  }
  return out + text.slice(from);
}

/**
 * `text` with every echo of any of `keys` replaced by `[redacted]`, searched again until none is
 * left (what remains around a cut could in theory line up anew); {@link WITHHELD_TEXT} when that
 * does not settle.
 */
export function scrubKey(text: string, keys: SecretKeys): string {
  let current = text;
  for (let round = 0; round < 3; round += 1) {
    const spans = findKeyEchoes(current, keys);
    if (spans.length === 0) return current;
    current = replaced(current, spans);
  }
  return carriesKey(current, keys) ? WITHHELD_TEXT : current;
}
