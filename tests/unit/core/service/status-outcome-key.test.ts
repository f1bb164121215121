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

/** Every string in `value` (as posted: a structured clone keeps them as they are). */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(stringsIn);
}

/** The texts of an error status's outcome for `body`, as the worker posts it. */
function outcomeFor(body: string, key: string): string[] {
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
  return stringsIn(outcome);
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
        expect(
          posted.flatMap((text) => keyScanner(key).leaks(text)),
          body,
        ).toEqual([]);
        // The server's words around the echo are kept.
        expect(posted.join('\n')).toMatch(/Invalid request from|Refused for/);
      }
    }
  });
});
