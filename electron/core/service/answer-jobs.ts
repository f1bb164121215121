/**
 * The work the answer worker does for the service client (answer-worker.ts runs it, the tests
 * run it in-process): an answer's body read as it arrives by the structural reader
 * (answer-scan.ts), then parsed, read by its profile, checked for the key and normalised
 * (profile-answers.ts, answer-parsing.ts) on its bounded skeleton; and an error status's body
 * read and scrubbed of the key. Nothing here throws: every ending is an {@link AnswerOutcome}.
 */
import type { ProviderProfile } from './providers/provider-profile';
import { profileOf } from './providers/profiles';
import { AnswerScan, type ScanFault, type Scanned } from './answer-scan';
import { errorForStructure } from './answer-structure';
import {
  thrownOutcome,
  type AnswerOutcome,
  type AnswerSpec,
  type StatusSpec,
} from './answer-protocol';
import { KIND_STATUS } from './client-parts';
import { MAX_QUEUE_ENTRIES } from './answer-limits';
import { parseJson } from './http-response';
import { submitAnswerOf, taskAnswerOf, type AnswerSource } from './profile-answers';
import { heldAnswerOutcome } from './held-reading';
import { redactBody, redactText } from './request-guard';
import { errorForStatus, type ServiceOperation } from './status-errors';

function opOf(spec: AnswerSpec): ServiceOperation {
  return spec.kind === 'submit' ? 'submit' : 'query';
}

/** The most entries one list of the answer may have, where it is not the usual bound. */
function entriesOf(spec: AnswerSpec): { maxEntries?: number } {
  if (spec.kind === 'queue') return { maxEntries: MAX_QUEUE_ENTRIES };
  const listed = spec.kind === 'task' ? profileOf(spec.provider).listEntries : undefined;
  return listed === undefined ? {} : { maxEntries: listed };
}

/** One 2xx answer being read: its chunks pushed as they come, then finished. */
export class AnswerJob {
  readonly #spec: AnswerSpec;
  readonly #scan: AnswerScan;

  /** `nonce`: random, for the placeholders of the payloads it takes out. */
  constructor(spec: AnswerSpec, nonce: string) {
    this.#spec = spec;
    this.#scan = new AnswerScan({
      maxBytes: spec.maxBytes,
      takeOut: spec.kind === 'task' && spec.takeOut,
      maxInlineBytes: spec.kind === 'task' ? spec.maxInlineBytes : 0,
      nonce,
      ...entriesOf(spec),
    });
  }

  /** Reads the next chunk; the outcome when its structure already refuses the answer. */
  push(bytes: Uint8Array): AnswerOutcome | null {
    try {
      const fault = this.#scan.push(bytes);
      return fault === null ? null : this.#refused(fault);
    } catch (error) {
      return thrownOutcome(error);
    }
  }

  /** What the whole answer was. */
  finish(): AnswerOutcome {
    try {
      const scanned = this.#scan.end();
      if (typeof scanned === 'string') return this.#refused(scanned);
      return this.#read(scanned);
    } catch (error) {
      return thrownOutcome(error);
    }
  }

  #refused(fault: ScanFault): AnswerOutcome {
    const spec = this.#spec;
    // A held answer refused is a wait of no use, as one that says nothing is.
    if (spec.kind === 'held') return { kind: 'held', said: 'broken' };
    const takeOut = spec.kind === 'task' && spec.takeOut;
    return thrownOutcome(
      errorForStructure(opOf(spec), fault, {
        maxBytes: spec.maxBytes,
        takeOut,
        ...entriesOf(spec),
      }),
    );
  }

  #read(scanned: Scanned): AnswerOutcome {
    const spec = this.#spec;
    const profile = profileOf(spec.provider);
    const source: AnswerSource = {
      text: scanned.text,
      headers: headerLookup(spec.headers),
    };
    if (spec.kind === 'submit') {
      return { kind: 'submit', answer: submitAnswerOf(profile, source, spec.keys) };
    }
    if (spec.kind === 'held') return heldAnswerOutcome(spec, scanned.text);
    if (spec.kind === 'queue') {
      // Only the place crosses back (numbers): nothing of the queue's text is shown or kept.
      const json = parseJson(scanned.text);
      return {
        kind: 'queue',
        place: json.ok ? profile.queue?.read(json.value, spec.taskId) : undefined,
      };
    }
    if (spec.mayFetchResult && wantsResult(profile, scanned.text, spec.taskId))
      return { kind: 'fetchResult' };
    const result = spec.which === 'result' && profile.readResult !== undefined;
    const read = result
      ? (json: unknown) => profile.readResult?.(json, spec.status)
      : (json: unknown) => profile.readPoll(json, spec.taskId);
    const { ownAnswer } = profile;
    const task = taskAnswerOf(profile, source, read, {
      keys: spec.keys,
      maxInlineBytes: spec.maxInlineBytes,
      taken: scanned.taken,
      ...(result || !ownAnswer ? {} : { ownAnswer: (json) => ownAnswer(json, spec.taskId) }),
    });
    return { kind: 'task', task };
  }
}

/**
 * An answer's headers (as a response's headers iterate: lower-case names, one entry per name) read
 * as `Headers.get` reads them: by a name in any case, repeated names joined with ", ". Not a
 * `Headers`: in the answer worker, the first one loaded Node's whole fetch (undici, http2, tls),
 * about 50 ms of CPU at each start of the app's and each command's worker, for a lookup.
 */
export function headerLookup(
  entries: readonly (readonly [string, string])[],
): Pick<Headers, 'get'> {
  const byName = new Map<string, string>();
  for (const [name, value] of entries) {
    const key = name.toLowerCase();
    const had = byName.get(key);
    byName.set(key, had === undefined ? value : `${had}, ${value}`);
  }
  return { get: (name) => byName.get(name.toLowerCase()) ?? null };
}

/** The profile's poll answer says the task is done and its result is elsewhere. */
function wantsResult(profile: ProviderProfile, text: string, taskId: string): boolean {
  const json = parseJson(text);
  return json.ok && profile.readPoll(json.value, taskId).fetchResult === true;
}

/**
 * The error an error status's answer means, every text of the answer it quotes scrubbed of the
 * keys here, before the error crosses back to main: its body, and its reason phrase (a server
 * writes that line itself, `HTTP/1.1 400 <anything>`). The `Retry-After` value is read as a
 * number of milliseconds only, never quoted.
 */
export function statusOutcome(spec: StatusSpec): AnswerOutcome {
  try {
    const profile = profileOf(spec.provider);
    const json = profile.errorKind ? parseJson(spec.body) : null;
    const kind = json?.ok ? profile.errorKind?.(spec.status, json.value) : undefined;
    const meaning = kind === undefined ? undefined : KIND_STATUS[kind];
    const error = errorForStatus(
      spec.op,
      {
        status: spec.status,
        statusText: redactText(spec.statusText, spec.keys),
        body: redactBody(spec.body, spec.keys),
        retryAfter: spec.retryAfter,
        ...(meaning === undefined ? {} : { meaning }),
      },
      spec.now,
    );
    return thrownOutcome(error);
  } catch (error) {
    return thrownOutcome(error);
  }
}
