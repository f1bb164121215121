/**
 * The answer worker reads an answer's headers (a cost may be stated there) through a plain lookup,
 * not a `Headers`: the lookup answers what `Headers.get` answers, and a job read in a fresh process
 * loads none of Node's fetch (undici, http2, tls), which the first `Headers` did at every start of
 * the worker (about 50 ms of CPU).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headerLookup } from '../../../../electron/core/service/answer-jobs';
import { REPO_ROOT } from '../../../support/source-files';

/** A header name in any letter case (a token of letters, digits and dashes). */
const name = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,11}$/);
/** A header value as a response's headers hold it: no surrounding whitespace, no line breaks. */
const value = fc.stringMatching(/^[!-~]([ -~]{0,20}[!-~])?$/);

/** `text` with each letter's case flipped where `flips` says so. */
function recased(text: string, flips: readonly boolean[]): string {
  return [...text]
    .map((char, at) => (flips[at] ? char.toUpperCase() : char.toLowerCase()))
    .join('');
}

describe('headerLookup', () => {
  it('answers as Headers.get does, for the entries a response iterates and for raw ones', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(name, value), { maxLength: 8 }),
        name,
        fc.array(fc.boolean(), { maxLength: 12 }),
        (pairs, other, flips) => {
          const headers = new Headers(pairs);
          const iterated = headerLookup([...headers]);
          const raw = headerLookup(pairs);
          for (const asked of [...pairs.map(([n]) => n), other]) {
            const anyCase = recased(asked, flips);
            expect(iterated.get(anyCase)).toBe(headers.get(anyCase));
            expect(raw.get(anyCase)).toBe(headers.get(anyCase));
          }
        },
      ),
      { seed: 20261130, numRuns: 300 },
    );
  });

  it('reads a cost stated in a header, its name in any case', () => {
    const lookup = headerLookup([['x-usage-cost', '0.04 USD']]);
    expect(lookup.get('X-Usage-Cost')).toBe('0.04 USD');
    expect(lookup.get('x-usage-cost')).toBe('0.04 USD');
    expect(lookup.get('retry-after')).toBeNull();
  });

  it('lets a job in a fresh process read an answer and its header cost without loading fetch', async () => {
    const child = `
      import { AnswerJob } from './electron/core/service/answer-jobs.ts';
      const job = new AnswerJob(
        { kind: 'submit', provider: 'pictor', keys: ['sk-test'], maxBytes: 1e6,
          headers: [['x-usage-cost', '0.04 USD']] },
        'nonce',
      );
      job.push(new TextEncoder().encode('{"id":"task_1","status":"processing"}'));
      const outcome = job.finish();
      const fetchModules = process.moduleLoadList.filter((m) => /undici|http2|tls/.test(m));
      console.log(JSON.stringify({ outcome, fetchModules }));
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', child],
      { cwd: REPO_ROOT },
    );
    const { outcome, fetchModules } = JSON.parse(stdout) as {
      outcome: { kind: string; answer?: { id?: string; reportedCost?: unknown } };
      fetchModules: string[];
    };
    expect(outcome.kind).toBe('submit');
    expect(outcome.answer?.id).toBe('task_1');
    expect(outcome.answer?.reportedCost).toEqual({
      micros: 40_000,
      unit: 'USD',
      field: 'header x-usage-cost',
    });
    expect(fetchModules).toEqual([]);
  }, 60_000);
});
