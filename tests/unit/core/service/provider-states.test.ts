/**
 * Every provider profile reads any status word into Pictor's states the same safe way: a word
 * the profile does not list (another case, a space, a word of another service, anything) is a
 * task still processing in phase `unknown`, polled on; only the words the profile maps to an end
 * (and their documented error paths) make a task failed. The properties run from a fixed seed
 * (PICTOR_FC_SEED replays another), as the hardening project's do.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROVIDER_IDS, type ProviderId } from '../../../../shared/domain/providers';
import type { CanonicalState, ServiceTask } from '../../../../shared/service/wire';
import { parseTaskAnswer } from '../../../support/answer-parsers';
import { profileOf } from '../../../../electron/core/service/providers/profiles';

const SEED = Number(process.env['PICTOR_FC_SEED'] ?? 20_261_121);
const KEY = 'sk-provider-states-key';

/** A poll answer of `provider` saying `word` where the service says its status, with `extra`. */
function answerWith(provider: ProviderId, word: string, extra: Record<string, unknown>): unknown {
  switch (provider) {
    case 'dashscope':
      return { request_id: 'r-1', output: { task_id: 't-1', task_status: word, ...extra } };
    case 'bfl':
      return { id: 't-1', status: word, ...extra };
    case 'comfyui':
      // Its history entry under the prompt id.
      return { 't-1': { status: { status_str: word, completed: false, messages: [] }, ...extra } };
    default:
      return { id: 't-1', status: word, ...extra };
  }
}

/** The answer as the service client reads a poll's body: the profile's reading, normalised. */
function read(provider: ProviderId, answer: unknown): ServiceTask {
  const profile = profileOf(provider);
  return parseTaskAnswer(JSON.stringify(answer), KEY, (json) => profile.readPoll(json, 't-1'));
}

/** Every profile's documented words, in several spellings that are not theirs. */
const DOCUMENTED = PROVIDER_IDS.flatMap((id) => Object.keys(profileOf(id).statusWords));
const respelt = fc
  .tuple(
    fc.constantFrom(...DOCUMENTED),
    fc.constantFrom<(word: string) => string>(
      (word) => word.toLowerCase(),
      (word) => word.toUpperCase(),
      (word) => ` ${word}`,
      (word) => `${word} `,
      (word) => word.replace(/_/g, ' '),
      (word) => word.split('').join(' '),
      (word) => `${word}\u200b`,
      (word) => word,
    ),
  )
  .map(([word, spell]) => spell(word));
const anyWord = fc.oneof(
  fc.string({ maxLength: 300, unit: 'grapheme' }),
  fc.string({ maxLength: 40, unit: 'binary' }),
  // Longer than any word Pictor shows: still a word it does not know.
  fc.string({ minLength: 190, maxLength: 400 }),
  respelt,
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'UNKNOWN', 'Queued'),
);
/** What a service may send beside the word: an error of any usual shape, or none. */
const extras = fc.record(
  {
    error: fc.oneof(
      fc.string(),
      fc.record({ code: fc.string(), message: fc.string() }),
      fc.constant(null),
    ),
    details: fc.option(fc.record({ error: fc.string() })),
    code: fc.constantFrom('DataInspectionFailed', 'E005', 'InternalError'),
    message: fc.string(),
    error_type: fc.constantFrom('content_policy_violation', 'internal'),
  },
  { requiredKeys: [] },
);

/** What a word the profile maps to `state` must read as. */
function expectState(task: ServiceTask, state: CanonicalState | undefined): void {
  if (state === undefined || state === 'unknown') {
    expect(task).toMatchObject({ status: 'processing', phase: 'unknown' });
  } else if (state === 'queued') {
    expect(task).toMatchObject({ status: 'processing', phase: 'queued' });
  } else if (state === 'running') {
    expect(task.status).toBe('processing');
    expect('phase' in task).toBe(false);
  } else if (state === 'succeeded') {
    // fal's COMPLETED only says the result is ready; what it says comes from the result request.
    expect(['completed', 'failed']).toContain(task.status);
  } else {
    expect(task.status).toBe('failed');
  }
}

describe.each(PROVIDER_IDS)('the %s profile read through the service client', (provider) => {
  const words = profileOf(provider).statusWords;
  const mapped = (word: string): CanonicalState | undefined =>
    Object.hasOwn(words, word) ? words[word] : undefined;
  const ends = (state: CanonicalState | undefined): boolean =>
    state === 'failed' || state === 'moderated' || state === 'canceled' || state === 'expired';

  it('never calls a task failed for a word it does not map to an end; an unknown word is processing, phase unknown', () => {
    fc.assert(
      fc.property(anyWord, extras, (word, extra) => {
        const state = mapped(word);
        const task = read(provider, answerWith(provider, word, extra));
        if (!ends(state) && state !== 'succeeded') expect(task.status).not.toBe('failed');
        if (state === undefined)
          expect(task).toMatchObject({ status: 'processing', phase: 'unknown' });
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('reads each of its own words as the state it documents', () => {
    for (const [word, state] of Object.entries(words)) {
      expectState(read(provider, answerWith(provider, word, {})), state);
    }
  });
});

describe('the documented moderation paths', () => {
  it('reads Replicate’s E005 failure as moderated', () => {
    const task = read('replicate', {
      id: 't-1',
      status: 'failed',
      error:
        'The input or output was flagged as sensitive. Please try again with different inputs. (E005)',
    });
    expect(task).toMatchObject({ status: 'failed', outcome: 'moderated' });
  });
});
