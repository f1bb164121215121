/**
 * How the service client reads an answer that came (service-client.ts): an accepted one streamed
 * into the answer worker as it arrives (answer-reader.ts), an error status's body scrubbed of the
 * key there, and what a body that did not all arrive means. The main thread moves bytes only.
 */
import type { Clock } from '../../ports/clock';
import type { AnswerOutcome } from './answer-protocol';
import type { AnswerReader, BodyTrouble } from './answer-reader';
import type { AnswerReading } from './client-parts';
import type { BodyRead } from './http-response';
import { readBodyText } from './http-response';
import { errorForBrokenBody, errorForUnexpected } from './network-errors';
import { retryAfterNow } from './retry-after';
import type { ProviderProfile } from './providers/provider-profile';
import { ServiceError } from './service-error';
import { errorForTooLarge, type ServiceOperation } from './status-errors';

/**
 * The client's side of reading: its worker, its usual answer limit, its clock, and where the keys
 * its answers are searched for are held (ServiceClientOptions.heldKeys).
 */
export interface AnswerContext {
  readonly answers: AnswerReader;
  readonly maxBytes: number;
  readonly now: () => number;
  /** The clock of a request's time limit and a stream's hold; none: the real one. */
  readonly clock: Clock | undefined;
  readonly heldKeys: (() => Promise<readonly string[]>) | undefined;
}

/** The call an answer belongs to. */
export interface AnswerCall {
  readonly op: ServiceOperation;
  /** Ends the call: the caller's abort or the request's timeout. */
  readonly signal: AbortSignal;
  /** The caller's abort alone, which also ends the worker's reading of an answer that came. */
  readonly callerSignal: AbortSignal | undefined;
  readonly profile: ProviderProfile;
  /** The key sent, then every other the process holds: what an answer is searched for. */
  readonly keys: readonly string[];
}

/** A body that did not all arrive: too large, broken, or ended by the caller's abort. */
export function checkBody(call: AnswerCall, read: BodyRead | BodyTrouble, limit: number): void {
  if (read.outcome === 'too_large') throw errorForTooLarge(call.op, limit);
  if (read.outcome === 'broken') {
    if (call.signal.aborted) throw read.error;
    throw errorForBrokenBody(call.op, read.error);
  }
}

/** An outcome the worker gave that is no answer: a defect, or a kind the call did not ask for. */
export function unexpectedOutcome(op: ServiceOperation, outcome: AnswerOutcome): ServiceError {
  const said = outcome.kind === 'bug' ? outcome.message : `an answer read as ${outcome.kind}`;
  return errorForUnexpected(op, new Error(said));
}

/**
 * What an accepted answer was (its status one of `accepted`), its body streamed into the answer
 * worker as it arrives; or the error its status, its broken body or the worker's reading means.
 * @throws ServiceError; the call's abort reason.
 */
export async function readOutcome(
  context: AnswerContext,
  call: AnswerCall,
  response: Response,
  how: { readonly accepted: readonly number[]; readonly reading: AnswerReading },
): Promise<AnswerOutcome> {
  if (!how.accepted.includes(response.status)) {
    const read = await readBodyText(response, context.maxBytes, call.signal);
    throw await statusError(context, call, response, read.text);
  }
  const { spec, maxBodyBytes } = how.reading(response);
  const outcome = await context.answers.read(spec, response, maxBodyBytes, {
    body: call.signal,
    reading: call.callerSignal,
  });
  if ('outcome' in outcome) {
    checkBody(call, outcome, maxBodyBytes);
    throw errorForUnexpected(call.op, new Error('A body neither whole nor cut.'));
  }
  if (outcome.kind === 'error') throw new ServiceError(outcome.error);
  if (outcome.kind === 'bug') throw unexpectedOutcome(call.op, outcome);
  return outcome;
}

/** The error an error status means, its body (already read) scrubbed of the key in the worker. */
export async function statusError(
  context: AnswerContext,
  call: AnswerCall,
  response: Response,
  body: string,
): Promise<ServiceError> {
  const outcome = await context.answers.status(
    {
      kind: 'status',
      provider: call.profile.id,
      keys: call.keys,
      op: call.op,
      status: response.status,
      statusText: response.statusText,
      retryAfter: response.headers.get('retry-after'),
      body,
      now: retryAfterNow(response.headers.get('date'), context.now()),
    },
    call.callerSignal,
  );
  return outcome.kind === 'error'
    ? new ServiceError(outcome.error)
    : unexpectedOutcome(call.op, outcome);
}
