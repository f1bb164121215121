/**
 * The answer to a held wait (ProviderProfile.held): a poll the service holds until the task ends
 * (Replicate's `Prefer: wait`), or a stream of status events it closes after the last one (fal's
 * `status/stream`). It only says whether the task ended: the poll that follows reads what the
 * task is, so nothing a held answer says can end a task, lose it or submit it again.
 *
 * Here only its status and type are looked at; its body is read in the answer worker
 * (held-reading.ts), never parsed on main's thread. A status the poll would not accept, a stream
 * that is not `text/event-stream`, a body too large or broken make the wait `broken`; one broken
 * by this computer's network (asleep, changed, gone: transport-reading.ts) is `interrupted`, which
 * says nothing of the service. The caller's time limit bounds the whole wait.
 */
import type { AnswerContext } from './client-answers';
import { heldReading, type AnswerReading } from './client-parts';
import { discardBody } from './http-response';
import type { HeldOutcome } from './answer-protocol';
import type { ProfileRequest, ProviderProfile, TaskHandles } from './providers/provider-profile';
import type { GenerationRequest } from '../../../shared/service/wire';
import { readTransportFailure } from './transport-reading';
import { timeLimit } from './time-limit';

export type { HeldOutcome };

/**
 * How a held wait ended: what its answer said, or `interrupted` when this computer's network
 * failed it (the machine slept, its network changed), which is no sign of the service's wait.
 */
export type HeldWaitOutcome = HeldOutcome | 'interrupted';

/** How the client sends the held request (checked as every request) and reads its answer. */
interface HeldIo {
  readonly signal: AbortSignal;
  /** The client's answer worker, usual answer limit and clock (a stream's hold is on it). */
  readonly context: Pick<AnswerContext, 'answers' | 'maxBytes' | 'clock'>;
  /** The keys the answer is searched for (the worker's reading takes them, as every answer's). */
  readonly keys: readonly string[];
  respond(signal: AbortSignal, request: ProfileRequest): Promise<Response>;
}

/**
 * What a held wait's answer said, its body read by the answer worker; `broken` for a body too
 * large or cut short, `interrupted` for one this computer's network cut.
 * @throws `signal`'s reason when it aborted.
 */
async function readHeld(
  io: HeldIo,
  reading: AnswerReading,
  response: Response,
  signal: AbortSignal,
): Promise<HeldWaitOutcome> {
  const { spec, maxBodyBytes } = reading(response);
  const signals = { body: signal, reading: signal };
  const read = await io.context.answers.read(spec, response, maxBodyBytes, signals);
  if ('kind' in read) return read.kind === 'held' ? read.said : 'broken';
  if (signal.aborted) throw signal.reason;
  return read.outcome === 'broken' && readTransportFailure(read.error).offline
    ? 'interrupted'
    : 'broken';
}

/** Whether `response` is one the wait's body may be read from. */
function readable(response: Response, events: boolean, accepted: readonly number[]): boolean {
  if (!events) return accepted.includes(response.status);
  const type = response.headers.get('content-type') ?? '';
  return response.status === 200 && /^text\/event-stream\s*(;|$)/i.test(type) && !!response.body;
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
): Promise<HeldWaitOutcome> {
  const held = profile.held;
  if (!held) return 'broken';
  const events = held.answer === 'events';
  const hold = timeLimit(holdMs, io.context.clock);
  const signal = events ? AbortSignal.any([io.signal, hold.signal]) : io.signal;
  const asked = held.request(
    task.taskId,
    task.handles ?? {},
    task.request ?? { prompt: '' },
    holdMs / 1000,
  );
  try {
    const response = await io.respond(signal, asked);
    if (!readable(response, events, profile.answerStatuses.poll)) {
      discardBody(response);
      return 'broken';
    }
    const { maxBytes } = io.context;
    const reading = heldReading({ profile, keys: io.keys }, maxBytes, held.answer, task.taskId);
    return await readHeld(io, reading, response, signal);
  } catch (error) {
    // A stream open to its limit is the usual case: the task still runs.
    if (hold.signal.aborted && !io.signal.aborted) return 'waiting';
    throw error;
  } finally {
    hold.clear();
  }
}
