/**
 * The seed a completed task's answer carries, read where each service documents it (today's
 * contract's `seed`, fal's result `seed`, BFL's `result.seed`, Replicate's `input.seed`;
 * DashScope says none), through the real service client: a whole number or the decimal text of
 * one is kept; a negative, fractional, too large, absent or otherwise strange one is dropped and
 * the task is read as always. A seed that carried part of the key is dropped too.
 */
import { describe, expect, it } from 'vitest';
import type { ProviderId } from '../../../../shared/domain/providers';
import { readSeed } from '../../../../shared/service/service-seed';
import { normaliseCanonical } from '../../../../shared/service/wire';
import { client, credentials } from './answer-harness';
import { json, type Responder } from './fake-fetch';

const URL = 'https://cdn.example.com/a.png';

/** Each service's completed answer with `seed` where it documents one (absent: left out). */
const COMPLETED: Record<ProviderId, (seed?: unknown) => Responder[]> = {
  pictor: (seed) => [
    json(200, {
      id: 't1',
      status: 'completed',
      output: { data: [{ url: URL }] },
      ...(seed === undefined ? {} : { seed }),
    }),
  ],
  fal: (seed) => [
    json(200, { status: 'COMPLETED' }),
    json(200, { images: [{ url: URL }], ...(seed === undefined ? {} : { seed }) }),
  ],
  bfl: (seed) => [
    json(200, {
      id: 't1',
      status: 'Ready',
      result: { sample: URL, prompt: 'a fox', ...(seed === undefined ? {} : { seed }) },
    }),
  ],
  replicate: (seed) => [
    json(200, {
      id: 't1',
      status: 'succeeded',
      input: { prompt: 'a fox', ...(seed === undefined ? {} : { seed }) },
      output: [URL],
      error: null,
    }),
  ],
  dashscope: () => [
    json(200, {
      output: { task_id: 't1', task_status: 'SUCCEEDED', results: [{ url: URL }] },
      // Not where DashScope puts anything: its answer documents no seed.
      seed: 12_345,
    }),
  ],
  // ComfyUI's history names files, not links, and says no seed of its own.
  comfyui: () => [
    json(200, {
      t1: {
        status: { status_str: 'success', completed: true, messages: [] },
        outputs: { '9': { images: [{ filename: 'a.png', subfolder: '', type: 'output' }] } },
      },
    }),
  ],
};

const SEEDED: readonly Exclude<ProviderId, 'dashscope'>[] = ['pictor', 'fal', 'bfl', 'replicate'];

async function completed(provider: ProviderId, responders: Responder[]) {
  let call = 0;
  const { client: service } = client((url, init) => {
    const responder = responders[Math.min(call, responders.length - 1)]!;
    call += 1;
    return responder(url, init);
  });
  const task = await service.getTask(
    { ...credentials, provider },
    { taskId: 't1', request: { prompt: 'a fox', model: 'fal-ai/flux/schnell' } },
  );
  expect(task.status).toBe('completed');
  if (task.status !== 'completed') throw new Error('not completed');
  expect(task.imageUrls).toEqual([URL]);
  return task;
}

const DROPPED: readonly [string, unknown][] = [
  ['negative', -1],
  ['a fraction', 12.5],
  ['past 2^53 − 1', 2 ** 53],
  ['huge', 1e21],
  ['not finite (a string)', 'Infinity'],
  ['an exponent', '1e5'],
  ['a negative string', '-5'],
  ['a string with spaces', ' 42'],
  ['a leading zero', '042'],
  ['a string past 2^53 − 1', '9007199254740992'],
  ['a 64-bit string', '18446744073709551615'],
  ['null', null],
  ['true', true],
  ['an object', { value: 42 }],
  ['a list', [42]],
];

describe('the seed a completed answer carries', () => {
  it.each(SEEDED)('%s: a whole number is kept as the task’s seed', async (provider) => {
    const task = await completed(provider, COMPLETED[provider](123_456_789));
    expect(task.seed).toBe(123_456_789);
  });

  it.each(SEEDED)('%s: the decimal text of one is read as the number', async (provider) => {
    const task = await completed(provider, COMPLETED[provider]('4294967295'));
    expect(task.seed).toBe(4_294_967_295);
  });

  it.each(SEEDED)('%s: 0 and 2^53 − 1 are seeds', async (provider) => {
    expect((await completed(provider, COMPLETED[provider](0))).seed).toBe(0);
    const most = await completed(provider, COMPLETED[provider](Number.MAX_SAFE_INTEGER));
    expect(most.seed).toBe(Number.MAX_SAFE_INTEGER);
  });

  it.each(SEEDED)('%s: no seed says none, and the task reads as always', async (provider) => {
    const task = await completed(provider, COMPLETED[provider]());
    expect(task).not.toHaveProperty('seed');
  });

  it.each(
    SEEDED.flatMap((provider) => DROPPED.map(([what, value]) => ({ provider, what, value }))),
  )('$provider: a seed that is $what is dropped, the task kept', async ({ provider, value }) => {
    const task = await completed(provider, COMPLETED[provider](value));
    expect(task).not.toHaveProperty('seed');
  });

  it('DashScope documents none: a `seed` anywhere in its answer is not read', async () => {
    const task = await completed('dashscope', COMPLETED.dashscope());
    expect(task).not.toHaveProperty('seed');
  });

  it('BFL’s and Replicate’s seed is read from their own places only', async () => {
    const bfl = [json(200, { id: 't1', status: 'Ready', result: { sample: URL }, seed: 7 })];
    expect(await completed('bfl', bfl)).not.toHaveProperty('seed');
    const replicate = [
      json(200, { id: 't1', status: 'succeeded', input: {}, output: [URL], seed: 7 }),
    ];
    expect(await completed('replicate', replicate)).not.toHaveProperty('seed');
  });

  it('a seed whose digits are the key’s is dropped with the echo, the image kept', async () => {
    const key = '12345678901234';
    // As text, the answer still reads once the key is scrubbed from it (as a bare number the
    // scrubbed answer no longer parses, and its images are refused with it: answer-parsing.ts).
    const { client: service } = client(
      json(200, { status: 'completed', output: { data: [{ url: URL }] }, seed: key }),
    );
    const task = await service.getTask({ ...credentials, key }, 't1');
    expect(task).toMatchObject({ status: 'completed', imageUrls: [URL] });
    expect(task).not.toHaveProperty('seed');
  });
});

/** A ComfyUI history whose ran graph (its `prompt` entry) holds `graph`. */
function comfyHistory(graph: unknown) {
  return json(200, {
    t1: {
      prompt: [1, 't1', graph, {}, ['9']],
      status: { status_str: 'success', completed: true, messages: [] },
      outputs: { '9': { images: [{ filename: 'a.png', subfolder: '', type: 'output' }] } },
    },
  });
}

async function comfyTask(graph: unknown) {
  const { client: service } = client(comfyHistory(graph));
  const task = await service.getTask(
    { ...credentials, provider: 'comfyui', key: '' },
    { taskId: 't1', request: { prompt: 'a fox', model: 'comfyui' } },
  );
  if (task.status !== 'completed') throw new Error('not completed');
  return task;
}

describe('ComfyUI: the seed read back from the graph that ran', () => {
  const sampler = (inputs: Record<string, unknown>) => ({ class_type: 'KSampler', inputs });

  it('is its sampler’s seed, or an advanced sampler’s noise_seed', async () => {
    expect((await comfyTask({ '3': sampler({ seed: 4_294_967_295 }) })).seed).toBe(4_294_967_295);
    expect((await comfyTask({ '3': sampler({ noise_seed: 7 }) })).seed).toBe(7);
    const two = { '3': sampler({ seed: 9 }), '5': sampler({ noise_seed: 9 }) };
    expect((await comfyTask(two)).seed).toBe(9);
  });

  it.each<[string, unknown]>([
    ['two samplers with different seeds', { '3': sampler({ seed: 1 }), '5': sampler({ seed: 2 }) }],
    ['no seed input', { '3': sampler({ steps: 20 }) }],
    ['a linked seed', { '3': sampler({ seed: ['4', 0] }) }],
    ['a negative seed', { '3': sampler({ seed: -1 }) }],
    ['no graph', null],
    ['a graph that is a list', [sampler({ seed: 1 })]],
  ])('says none for %s, the task kept', async (_what, graph) => {
    expect(await comfyTask(graph)).not.toHaveProperty('seed');
  });
});

describe('readSeed', () => {
  it('reads a whole number from 0 to 2^53 − 1, or its decimal text', () => {
    expect(readSeed(0)).toBe(0);
    expect(readSeed(42)).toBe(42);
    expect(readSeed('42')).toBe(42);
    expect(readSeed('0')).toBe(0);
    expect(readSeed(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
    expect(readSeed(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });

  it.each([...DROPPED, ['NaN', Number.NaN], ['undefined', undefined], ['empty', '']])(
    'says nothing for %s',
    (_what, value) => {
      expect(readSeed(value)).toBeUndefined();
    },
  );

  it('is kept only on a completed task', () => {
    expect(normaliseCanonical({ status: 'running', seed: 5 })).not.toHaveProperty('seed');
    expect(normaliseCanonical({ status: 'failed', seed: 5 })).not.toHaveProperty('seed');
    expect(normaliseCanonical({ status: 'succeeded', seed: 5, output: { data: [] } })).toEqual({
      status: 'completed',
      imageUrls: [],
      seed: 5,
    });
  });
});
