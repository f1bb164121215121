/**
 * What a held wait's answer says (held-answer.ts sends the wait), read in the answer worker as
 * every other service answer is: a hostile service's held answer of a megabyte (a running
 * prediction's `logs`, a stream of long events) was `JSON.parse`d on main's thread, once per wait
 * of every task held. Only the verdict crosses back: the task `ended` (poll now), it still runs
 * (`waiting`), or the wait is of no use (`broken`).
 *
 * Read strictly and bounded: an event of more than {@link MAX_EVENT_CHARS}, a stream of more than
 * {@link MAX_STREAM_BYTES} (the reader's body limit), bytes that are not UTF-8, a field
 * Server-Sent Events do not have, or an event whose data is not a status answer make the wait
 * `broken`; so does a stream cut inside an event.
 */
import type { CanonicalState } from '../../../shared/service/wire';
import type { AnswerOutcome, HeldOutcome, HeldSpec } from './answer-protocol';
import { parseJson } from './http-response';
import { profileOf } from './providers/profiles';

/** The most one event of a status stream may hold, in characters. */
const MAX_EVENT_CHARS = 64 * 1024;
/** The most a status stream may send before it says the task ended, in bytes. */
export const MAX_STREAM_BYTES = 1024 * 1024;

const FIELDS = new Set(['data', 'event', 'id', 'retry']);

/**
 * Whether a status answer says the task ended: true, false (it waits or runs), undefined (not a
 * status answer).
 */
type EndsTest = (json: unknown) => boolean | undefined;

/** Whether a status says the task ended; undefined when the answer had no status word. */
function endsIn(status: CanonicalState | undefined): boolean | undefined {
  if (status === undefined) return undefined;
  return status !== 'queued' && status !== 'running' && status !== 'unknown';
}

/** The test of `spec`'s profile: its poll's reading of a status answer. */
function endsTest(spec: HeldSpec): EndsTest {
  const profile = profileOf(spec.provider);
  return (json) => endsIn(profile.readPoll(json, spec.taskId).status);
}

function endsOf(text: string, ends: EndsTest): boolean | undefined {
  const json = parseJson(text);
  return json.ok ? ends(json.value) : undefined;
}

const held = (outcome: HeldOutcome): AnswerOutcome => ({ kind: 'held', said: outcome });

/** A held poll's whole answer (its structure already bounded by the answer scan): one status. */
export function heldAnswerOutcome(spec: HeldSpec, text: string): AnswerOutcome {
  const said = endsOf(text, endsTest(spec));
  return held(said === undefined ? 'broken' : said ? 'ended' : 'waiting');
}

/**
 * Parses Server-Sent Events line by line; `dispatch` gets each event's data. Its work is linear in
 * the bytes read, however they are cut: an event's data lines are kept in place with their joined
 * length counted (an event of 65,000 empty `data:` lines, copied and joined at each line, cost
 * ~50 s of CPU), and so is a line that has not ended, in the pieces it came in, each piece looked
 * at once (a stream's megabyte of 60,000-character lines sent a byte at a time, each line joined
 * and split again at each byte, cost the answer worker 2.7–3.7 s of CPU; now 0.2–0.3 s).
 */
class EventLines {
  /** The line not ended yet, in the pieces it came in, and their length. */
  #pending: string[] = [];
  #pendingChars = 0;
  /** The text before ended with CR: a LF at the start of the next is the same line break. */
  #afterCr = false;
  #data: string[] | null = null;
  /** The length of `#data` joined by line breaks. */
  #dataChars = 0;

  /** False when the text breaks the format or a bound. */
  push(text: string, dispatch: (data: string) => boolean | undefined): boolean | 'ended' {
    if (text === '') return true;
    let from = this.#afterCr && text.startsWith('\n') ? 1 : 0;
    this.#afterCr = false;
    const breaks = /\r\n|\n|\r/g;
    breaks.lastIndex = from;
    for (let found = breaks.exec(text); found !== null; found = breaks.exec(text)) {
      const line = this.#ended(text.slice(from, found.index));
      from = found.index + found[0].length;
      this.#afterCr = from === text.length && found[0] === '\r';
      const step = this.#line(line, dispatch);
      if (step !== true) return step;
    }
    if (from === text.length) return true;
    this.#pending.push(from === 0 ? text : text.slice(from));
    this.#pendingChars += text.length - from;
    return this.#pendingChars <= MAX_EVENT_CHARS;
  }

  /** The whole line that `last` ends, joined once. */
  #ended(last: string): string {
    if (this.#pending.length === 0) return last;
    this.#pending.push(last);
    const line = this.#pending.join('');
    this.#pending = [];
    this.#pendingChars = 0;
    return line;
  }

  /** Nothing half said: the stream may end here. */
  get clean(): boolean {
    return this.#pendingChars === 0 && this.#data === null;
  }

  #line(line: string, dispatch: (data: string) => boolean | undefined): boolean | 'ended' {
    // A line is bounded whole as it is in pieces: a line past the bound that came in one piece with
    // its break (a comment, an `event:`) was read, the same line in pieces broke the wait.
    if (line.length > MAX_EVENT_CHARS) return false;
    if (line === '') {
      const data = this.#data;
      this.#data = null;
      this.#dataChars = 0;
      if (data === null) return true;
      const said = dispatch(data.join('\n'));
      return said === undefined ? false : said ? 'ended' : true;
    }
    if (line.startsWith(':')) return true;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (!FIELDS.has(field)) return false;
    if (field !== 'data') return true;
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (this.#data === null) {
      this.#data = [value];
      this.#dataChars = value.length;
    } else {
      this.#data.push(value);
      this.#dataChars += 1 + value.length;
    }
    return this.#dataChars <= MAX_EVENT_CHARS;
  }
}

/**
 * A status stream (`text/event-stream` whose events' data are status answers) read as it arrives,
 * until one says the task ended; a stream that closes cleanly before that leaves the task
 * `waiting`. Its bytes are bounded by the reader (MAX_STREAM_BYTES).
 */
export class HeldEvents {
  readonly #ends: EndsTest;
  readonly #decoder = new TextDecoder('utf-8', { fatal: true });
  readonly #lines = new EventLines();

  constructor(spec: HeldSpec) {
    this.#ends = endsTest(spec);
  }

  /** Reads the next bytes; the outcome once the stream has said it. */
  push(bytes: Uint8Array): AnswerOutcome | null {
    let text: string;
    try {
      text = this.#decoder.decode(bytes, { stream: true });
    } catch {
      return held('broken');
    }
    const step = this.#lines.push(text, (data) => endsOf(data, this.#ends));
    if (step === 'ended') return held('ended');
    return step ? null : held('broken');
  }

  /** The stream closed without saying the task ended. */
  finish(): AnswerOutcome {
    let rest: string;
    try {
      rest = this.#decoder.decode();
    } catch {
      return held('broken');
    }
    return held(this.#lines.clean && rest.length === 0 ? 'waiting' : 'broken');
  }
}
