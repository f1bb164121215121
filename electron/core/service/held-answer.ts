/**
 * The answer to a held wait (ProviderProfile.held): a poll the service holds until the task ends
 * (Replicate's `Prefer: wait`), or a stream of status events it closes after the last one (fal's
 * `status/stream`). It only says whether the task ended: the poll that follows reads what the
 * task is, so nothing a held answer says can end a task, lose it or submit it again.
 *
 * Read strictly and bounded: an event of more than {@link MAX_EVENT_CHARS}, a stream of more than
 * {@link MAX_STREAM_BYTES}, bytes that are not UTF-8, a field Server-Sent Events do not have, or
 * an event whose data is not a status answer make the wait `broken`; so does a stream cut inside
 * an event. The caller's time limit bounds the whole wait.
 */
import type { CanonicalState } from '../../../shared/service/wire';
import { discardBody, readBodyText } from './http-response';
import type { ProfileRequest, ProviderProfile, TaskHandles } from './providers/provider-profile';
import type { GenerationRequest } from '../../../shared/service/wire';

/**
 * How a held wait ended: the task `ended` (poll now to read it), the service held it to its limit
 * and it still runs (`waiting`), or the wait is of no use for this task (`broken`: poll at the
 * usual interval from now on).
 */
export type HeldOutcome = 'ended' | 'waiting' | 'broken';

/**
 * Whether a status answer says the task ended: true, false (it waits or runs), undefined (not a
 * status answer).
 */
type EndsTest = (json: unknown) => boolean | undefined;

const MAX_EVENT_CHARS = 64 * 1024;
const MAX_STREAM_BYTES = 1024 * 1024;

const FIELDS = new Set(['data', 'event', 'id', 'retry']);

/** A held poll's answer: one status answer, as the poll's own statuses accept it. */
async function readHeldAnswer(
  response: Response,
  accepted: readonly number[],
  ends: EndsTest,
  limits: { readonly maxBytes: number; readonly signal: AbortSignal },
): Promise<HeldOutcome> {
  if (!accepted.includes(response.status)) {
    discardBody(response);
    return 'broken';
  }
  const read = await readBodyText(response, limits.maxBytes, limits.signal);
  if (read.outcome !== 'complete') return 'broken';
  const said = endsOf(read.text, ends);
  return said === undefined ? 'broken' : said ? 'ended' : 'waiting';
}

function endsOf(text: string, ends: EndsTest): boolean | undefined {
  try {
    return ends(JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/**
 * Parses Server-Sent Events line by line; `dispatch` gets each event's data. Its work is linear in
 * the bytes read: an event's data lines are kept in place with their joined length counted (an
 * event of 65,000 empty `data:` lines, copied and joined at each line, cost ~50 s of CPU).
 */
class EventLines {
  #pending = '';
  #data: string[] | null = null;
  /** The length of `#data` joined by line breaks. */
  #dataChars = 0;

  /** False when the text breaks the format or a bound. */
  push(text: string, dispatch: (data: string) => boolean | undefined): boolean | 'ended' {
    const lines = (this.#pending + text).split(/\r\n|\n|\r(?!$)/);
    this.#pending = lines.pop() ?? '';
    if (this.#pending.length > MAX_EVENT_CHARS) return false;
    for (const line of lines) {
      const step = this.#line(line, dispatch);
      if (step !== true) return step;
    }
    return true;
  }

  /** Nothing half said: the stream may end here. */
  get clean(): boolean {
    return this.#pending === '' && this.#data === null;
  }

  #line(line: string, dispatch: (data: string) => boolean | undefined): boolean | 'ended' {
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
 * A status stream: `text/event-stream` whose events' data are status answers, until one says the
 * task ended. A stream that closes cleanly before that leaves the task `waiting`.
 */
async function readStatusEvents(
  response: Response,
  ends: EndsTest,
  signal: AbortSignal,
): Promise<HeldOutcome> {
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || !/^text\/event-stream\s*(;|$)/i.test(type) || !response.body) {
    discardBody(response);
    return 'broken';
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const lines = new EventLines();
  let total = 0;
  try {
    for (;;) {
      signal.throwIfAborted();
      const { done, value } = await reader.read();
      if (done) return lines.clean && decoder.decode().length === 0 ? 'waiting' : 'broken';
      total += value.byteLength;
      if (total > MAX_STREAM_BYTES) return 'broken';
      const step = lines.push(decoder.decode(value, { stream: true }), (data) =>
        endsOf(data, ends),
      );
      if (step === 'ended') return 'ended';
      if (!step) return 'broken';
    }
  } catch (error) {
    if (signal.aborted) throw error;
    // Not UTF-8, or the connection cut: the wait is of no use; the poll carries on.
    return 'broken';
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/** Whether a status says the task ended; undefined when the answer had no status word. */
function endsIn(status: CanonicalState | undefined): boolean | undefined {
  if (status === undefined) return undefined;
  return status !== 'queued' && status !== 'running' && status !== 'unknown';
}

/** How the client sends the held request: checked as every request, under `signal`. */
interface HeldIo {
  readonly signal: AbortSignal;
  readonly maxBytes: number;
  respond(signal: AbortSignal, request: ProfileRequest): Promise<Response>;
}

/**
 * The profile's held wait for a task (its id checked), to its end or `holdMs` for a stream (a
 * held poll asks for that many seconds and is bounded by the request's timeout).
 * @throws what the request threw (the client makes it `broken`, or the caller's abort).
 */
export async function heldWait(
  profile: ProviderProfile,
  task: {
    readonly taskId: string;
    readonly handles?: TaskHandles | undefined;
    readonly request?: GenerationRequest | undefined;
  },
  holdMs: number,
  io: HeldIo,
): Promise<HeldOutcome> {
  const held = profile.held;
  if (!held) return 'broken';
  const events = held.answer === 'events';
  const hold = AbortSignal.timeout(holdMs);
  const signal = events ? AbortSignal.any([io.signal, hold]) : io.signal;
  const asked = held.request(
    task.taskId,
    task.handles ?? {},
    task.request ?? { prompt: '' },
    holdMs / 1000,
  );
  const ends = (json: unknown) => endsIn(profile.readPoll(json).status);
  try {
    const response = await io.respond(signal, asked);
    if (events) return await readStatusEvents(response, ends, signal);
    const limits = { maxBytes: io.maxBytes, signal };
    return await readHeldAnswer(response, profile.answerStatuses.poll, ends, limits);
  } catch (error) {
    // A stream open to its limit is the usual case: the task still runs.
    if (hold.aborted && !io.signal.aborted) return 'waiting';
    throw error;
  }
}
