/**
 * The errors the answer worker makes from what the service sent scrub the keys before they cross
 * back to main: an error status's (answer-jobs.ts's statusOutcome scrubs the body and the reason
 * phrase) and a 200 body that does not read (answer-parsing.ts's badBody scrubs its excerpt).
 * The keys are the one the request sent and every other the process holds (another service's):
 * each is echoed in every encoding. Each scrub is the first of two defences, the service client's
 * redactError being the second; key-echoes.test.ts runs the whole core, where redactError covers
 * them, so taking either out changes nothing there. Here the worker's errors are read as they
 * are made, so each scrub is proven on its own.
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

/** The texts of an error status's outcome, as the worker posts it. */
function outcomeFor(
  answer: { readonly body: string; readonly statusText?: string; readonly status?: number },
  keys: readonly string[],
): string[] {
  const outcome = statusOutcome({
    kind: 'status',
    provider: DEFAULT_PROVIDER,
    keys,
    op: 'submit',
    status: answer.status ?? 400,
    statusText: answer.statusText ?? 'Bad Request',
    retryAfter: null,
    body: answer.body,
    now: 0,
  });
  expect(outcome.kind).toBe('error');
  return stringsIn(outcome);
}

/**
 * Random pairs of keys, the one sent and another the process holds, and which of them is echoed
 * (by turns): 4 of each encoding, 2 echoing each key.
 */
function keyPairs(): { keys: [string, string]; echoed: string; at: number }[] {
  return fc.sample(fc.tuple(keyArb, keyArb), { numRuns: 4 }).map(([sent, held], at) => ({
    keys: [sent, held],
    echoed: at % 2 === 0 ? sent : held,
    at,
  }));
}

function leaksOf(texts: readonly string[], keys: readonly string[]): string[] {
  return keys.flatMap((key) => texts.flatMap((text) => keyScanner(key).leaks(text)));
}

describe('an error status read in the answer worker', () => {
  it.each(ENCODING_NAMES)('carries no key echoed in its body (%s)', (encoding) => {
    for (const { keys, echoed, at } of keyPairs()) {
      const echo = ENCODINGS[encoding]!(echoed, at);
      const bodies = [
        JSON.stringify({ error: { message: `Invalid request from ${echo}` } }),
        `Refused for ${echo}.`,
      ];
      for (const body of bodies) {
        const posted = outcomeFor({ body }, keys);
        expect(leaksOf(posted, keys), body).toEqual([]);
        // The server's words around the echo are kept.
        expect(posted.join('\n')).toMatch(/Invalid request from|Refused for/);
      }
    }
  });

  // The reason phrase is the server's own line (`HTTP/1.1 400 <anything>`): the detail quotes it.
  it.each(ENCODING_NAMES)('carries no key echoed in its reason phrase (%s)', (encoding) => {
    for (const { keys, echoed, at } of keyPairs()) {
      const echo = ENCODINGS[encoding]!(echoed, at);
      // A status with a sentence of its own (401), one that quotes the server (400), a 5xx, and
      // an unexpected 2xx, whose detail is the status line alone.
      for (const status of [400, 401, 503, 202]) {
        const statusText = `Refused for ${echo}`;
        const posted = outcomeFor({ body: '{"error":"no"}', statusText, status }, keys);
        expect(leaksOf(posted, keys), `${status} ${statusText}`).toEqual([]);
        // The line's words around the echo are kept.
        expect(posted.join('\n')).toMatch(new RegExp(`HTTP ${status} Refused for`));
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
    for (const { keys, echoed, at } of keyPairs()) {
      const echo = ENCODINGS[encoding]!(echoed, at);
      const reads = [
        () => readSubmitAnswer(`not JSON: ${echo}`, keys),
        () => readSubmitAnswer(JSON.stringify({ identifier: echo }), keys),
        () => readTaskAnswer(`<html>${echo}</html>`, keys),
        () => readTaskAnswer(JSON.stringify({ status: 42, note: echo }), keys),
      ];
      for (const read of reads) {
        const texts = unreadable(read);
        expect(leaksOf(texts, keys), String(read)).toEqual([]);
        // The excerpt is there: the body's words around the echo.
        expect(texts[1]).toMatch(/body: /);
      }
    }
  });
});
