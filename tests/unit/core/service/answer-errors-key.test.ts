/**
 * The errors the answer worker makes from what the service sent scrub the key before they cross
 * back to main: an error status's (answer-jobs.ts's statusOutcome scrubs the body) and a 200 body
 * that does not read (answer-parsing.ts's badBody scrubs its excerpt). Each is the first of two
 * defences, the service client's redactError being the second; key-echoes.test.ts runs the
 * whole core, where redactError covers them, so taking either out changes nothing there. Here
 * the worker's errors are read as they are made, so each scrub is proven on its own.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { statusOutcome } from '../../../../electron/core/service/answer-jobs';
import { readSubmitAnswer, readTaskAnswer } from '../../../../electron/core/service/answer-parsing';
import { ServiceError } from '../../../../electron/core/service/service-error';
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
    keys: [key],
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

/** The error reading `body` as a 200 answer throws, as its texts. */
function unreadable(read: () => unknown): string[] {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    const { message, detail } = error as ServiceError;
    return [message, detail ?? ''];
  }
  throw new Error('read');
}

describe('a 200 answer that does not read', () => {
  it.each(ENCODING_NAMES)('is refused with an excerpt that carries no key (%s)', (encoding) => {
    for (const [at, key] of fc.sample(keyArb, { numRuns: 4 }).entries()) {
      const echo = ENCODINGS[encoding]!(key, at);
      const reads = [
        () => readSubmitAnswer(`not JSON: ${echo}`, key),
        () => readSubmitAnswer(JSON.stringify({ identifier: echo }), key),
        () => readTaskAnswer(`<html>${echo}</html>`, key),
        () => readTaskAnswer(JSON.stringify({ status: 42, note: echo }), key),
      ];
      for (const read of reads) {
        const texts = unreadable(read);
        expect(
          texts.flatMap((text) => keyScanner(key).leaks(text)),
          String(read),
        ).toEqual([]);
        // The excerpt is there: the body's words around the echo.
        expect(texts[1]).toMatch(/body: /);
      }
    }
  });
});
