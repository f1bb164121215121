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
 * A pair fast-check once drew (the keys sent and held the other way) whose first key reads on into
 * the server's words before the echo: it holds `r` + its own start, and the echo follows "Refused
 * for ". The key is looked for spelt out with anything between its letters (key-echo-spaced.ts),
 * so the scrub rightly takes that `r` too (`Refused fo[redacted]`), in some encodings the space
 * and a quote as well. fast-check builds such keys from words like `propertyIsEnumerable`,
 * repeated; a check that every letter of "Refused for" was kept failed now and then (once at load
 * 23, though no load is needed). What must be kept is the words the key cannot read on into:
 * the first one.
 */
const READS_ON: [string, string] = [
  'propertyIsEnumerableCHrpropertyIsEnumerable',
  'sk-rXYgo3R6I7bO7X9DoIPNwZW-sg3GOxoR0oMv28',
];

/**
 * Random pairs of keys, the one sent and another the process holds, and which of them is echoed
 * (by turns): 4 of each encoding, 2 echoing each key; and {@link READS_ON}, its first key echoed
 * (fifth: by turns, the one sent).
 */
function keyPairs(): { keys: [string, string]; echoed: string; at: number }[] {
  const drawn = fc.sample(fc.tuple(keyArb, keyArb), { numRuns: 4 });
  return [...drawn, READS_ON].map(([sent, held], at) => ({
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
        // The server's words before the echo are kept, as far as the key cannot read on into
        // them (see READS_ON).
        expect(posted.join('\n')).toMatch(/Invalid request|Refused/);
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
        // The line's words before the echo are kept, as far as the key cannot read on into them.
        expect(posted.join('\n')).toMatch(new RegExp(`HTTP ${status} Refused`));
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
