/**
 * The answer worker's reading of an error status (answer-jobs.ts's statusOutcome) scrubs the key
 * from the body before its error crosses back to main: the first of two defences, the service
 * client's redactError being the second. key-echoes.test.ts runs the whole core, where
 * redactError covers this one; here the worker's outcome is read as it is posted, so the scrub
 * is proven on its own (taking it out fails this test and no other).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { statusOutcome } from '../../../../electron/core/service/answer-jobs';
import { DEFAULT_PROVIDER } from '../../../../shared/domain/providers';
import {
  ENCODINGS,
  ENCODING_NAMES,
  keyArb,
  keyScanner,
} from '../../../hardening/key-and-bodies/key-encodings';

/** An error status's outcome for `body`, as the worker posts it (structured-clone-able JSON). */
function outcomeFor(body: string, key: string): string {
  const outcome = statusOutcome({
    kind: 'status',
    provider: DEFAULT_PROVIDER,
    key,
    op: 'submit',
    status: 400,
    statusText: 'Bad Request',
    retryAfter: null,
    body,
    now: 0,
  });
  expect(outcome.kind).toBe('error');
  return JSON.stringify(outcome);
}

describe('an error status read in the answer worker', () => {
  it.each(ENCODING_NAMES)('carries no key echoed in its body (%s)', (encoding) => {
    for (const [at, key] of fc.sample(keyArb, { numRuns: 4 }).entries()) {
      const echo = ENCODINGS[encoding]!(key, at);
      const bodies = [
        JSON.stringify({ error: { message: `Invalid request from ${echo}` } }),
        `Refused for ${echo}.`,
      ];
      for (const body of bodies) {
        const posted = outcomeFor(body, key);
        expect(keyScanner(key).leaks(posted), body).toEqual([]);
        // The server's words around the echo are kept.
        expect(posted).toMatch(/Invalid request from|Refused for/);
      }
    }
  });
});
