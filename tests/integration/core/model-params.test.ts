/**
 * A model's own options and the seed asked for, through the real core to the demo's dialects on
 * loopback: each dialect's submit body carries every kind of option (a choice, a whole number, a
 * number, a switch, text) under the name its service documents, the seed under its schema's name
 * (and the seed the service answers is the record's); an option the model does not have, or a
 * value it refuses, is refused with one sentence before anything is stored or sent.
 */
import { describe, expect, it } from 'vitest';
import type { PictorCore } from '../../../electron/core/pictor-core';
import type { DemoService } from '../../../electron/demo-service/types';
import type { ProviderId } from '../../../shared/domain/providers';
import type { GenerationRequest } from '../../../shared/service/wire';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { memoryTemplates } from '../../support/template-source';
import { TemplateRuns } from '../../../electron/core/batch/template-runs';
import { resend } from '../../../electron/core/batch/resend';
import { KEY, providerRig, type ProviderRig } from '../providers/provider-harness';

let rig: ProviderRig | undefined;
let service: DemoService | undefined;

/**
 * The core and the dialect's demo on one manual clock (providerRig, which closes both after the
 * test): the tasks' 100 to 200 ms and the polls pass in clock time while `settled` waits.
 */
async function start(provider: Exclude<ProviderId, 'pictor'>): Promise<PictorCore> {
  rig = await providerRig(
    provider,
    { accounts: [{ account: 'alice', key: KEY }], durationMs: { min: 100, max: 200 } },
    { pollIntervalMs: 100, maxBackoffMs: 500 },
  );
  service = rig.service;
  rig.core.engine.start();
  return rig.core;
}

/** The records of `localIds` once settled, the clock moved meanwhile. */
const settled = (localIds: readonly string[]): Promise<TaskRecord[]> => rig!.settle(localIds);

async function sent(provider: Exclude<ProviderId, 'pictor'>, request: GenerationRequest) {
  const opened = await start(provider);
  const [task] = await opened.engine.submit(request, { provider, endpoint: service!.url });
  const [record] = await settled([task!.localId]);
  return { record: record!, body: service!.log.submits[0]?.body as Record<string, unknown> };
}

describe('the options each dialect sends', () => {
  it('fal: every kind by its own name, the seed as `seed`, read back from the result', async () => {
    const params = {
      num_inference_steps: 12,
      guidance_scale: 4.5,
      output_format: 'png',
      enable_safety_checker: false,
    };
    const { record, body } = await sent('fal', {
      prompt: 'a lighthouse',
      model: 'fal-ai/flux/dev',
      params,
      seed: 424242,
    });
    expect(body).toMatchObject({ prompt: 'a lighthouse', ...params, seed: 424242 });
    expect(record.status).toBe('completed');
    expect(record.seed).toBe(424242);
    expect(record.request).toMatchObject({ params, seed: 424242 });
  });

  it('fal: a negative prompt and an aspect ratio where the model takes them', async () => {
    const params = { negative_prompt: 'blurry, text', aspect_ratio: '16:9', resolution: '2K' };
    const { body } = await sent('fal', {
      prompt: 'a fox',
      model: 'fal-ai/imagen4/preview',
      params,
    });
    expect(body).toMatchObject({ prompt: 'a fox', ...params });
  });

  it('Replicate: the options inside `input`, the seed echoed back', async () => {
    const params = { aspect_ratio: '16:9', num_inference_steps: 20, guidance: 2.5, go_fast: false };
    const { record, body } = await sent('replicate', {
      prompt: 'a harbour',
      model: 'black-forest-labs/flux-dev',
      params,
      seed: 77,
    });
    expect(body).toEqual({ input: { prompt: 'a harbour', ...params, seed: 77 } });
    expect(record.seed).toBe(77);
  });

  it('BFL: the options beside the prompt, the seed read back from the result', async () => {
    const params = { steps: 30, guidance: 2.5, prompt_upsampling: true, output_format: 'png' };
    const { record, body } = await sent('bfl', {
      prompt: 'a mill',
      model: 'flux-dev',
      params,
      seed: 9,
    });
    expect(body).toMatchObject({ prompt: 'a mill', ...params, seed: 9 });
    expect(record.seed).toBe(9);
  });

  it('DashScope: the negative prompt in `input`, every other option in `parameters`', async () => {
    const { body } = await sent('dashscope', {
      prompt: 'a tea house',
      model: 'wanx2.1-t2i-turbo',
      params: { negative_prompt: 'people', watermark: true },
      seed: 31,
    });
    expect(body).toMatchObject({
      input: { prompt: 'a tea house', negative_prompt: 'people' },
      parameters: { n: 1, watermark: true, seed: 31 },
    });
  });

  it('sends no seed to a model whose schema has none, and no options to a model with no schema', async () => {
    const { body } = await sent('fal', { prompt: 'a cat', model: 'fal-ai/nano-banana', seed: 5 });
    expect(body).not.toHaveProperty('seed');
  });
});

describe('an option the model refuses', () => {
  it.each([
    [
      { num_inference_steps: 99 },
      'The option “num_inference_steps” takes a whole number from 1 to 50.',
    ],
    [{ output_format: 'gif' }, 'The option “output_format” takes one of: jpeg, png.'],
    [{ cfg: 3 }, 'The model fal-ai/flux/dev has no option “cfg”.'],
  ])('%j is one sentence, before anything is stored or sent', async (params, said) => {
    const opened = await start('fal');
    const target = { provider: 'fal' as const, endpoint: service!.url };
    const request = { prompt: 'x', model: 'fal-ai/flux/dev', params };
    await expect(opened.engine.submit(request, target)).rejects.toThrow(said);
    expect(service!.log.submits).toHaveLength(0);
    expect(opened.history.count()).toBe(0);
  });
});

describe('a template’s negative prompt', () => {
  it('is sent as the model’s negative prompt where its schema has one', async () => {
    const opened = await start('fal');
    const id = '0b6f1d7e-3c1a-4c55-9a0e-2f1d3c4b5a62';
    const templates = memoryTemplates(
      [{ id, name: 'Fox', body: 'a fox, {{prompt}}', negative: 'blurry' }],
      {},
    );
    const runs = new TemplateRuns({ templates, costs: opened.costs, engine: opened.engine });
    const input = {
      templateId: id,
      values: {},
      prompt: 'at dusk',
      mode: { kind: 'combinatorial' as const },
      target: { provider: 'fal' as const, endpoint: service!.url },
      request: { model: 'fal-ai/imagen4/preview' },
      count: 1,
    };
    expect(runs.plan(input).negative).toEqual({
      text: 'blurry',
      sent: true,
      name: 'negative_prompt',
    });
    const { records } = await runs.run(input);
    await settled(records.map((record) => record.localId));
    expect(service!.log.submits[0]?.body).toMatchObject({ negative_prompt: 'blurry' });
    expect(records[0]?.request.params).toEqual({ negative_prompt: 'blurry' });
  });
});

describe('Submit again and Rerun', () => {
  const model = 'fal-ai/flux/dev';
  const params = { num_inference_steps: 12, output_format: 'png' };

  it('Submit again sends the options and the asked seed again, and no seed where none was asked', async () => {
    const opened = await start('fal');
    const target = { provider: 'fal' as const, endpoint: service!.url };
    const [locked] = await opened.engine.submit({ prompt: 'a', model, params, seed: 31 }, target);
    const [drawn] = await opened.engine.submit({ prompt: 'b', model, params }, target);
    const ids = [locked!.localId, drawn!.localId];
    await settled(ids);
    const { records } = await resend(opened, ids, { as: 'each' });
    await settled(records.map((record) => record.localId));
    const bodies = service!.log.submits.map((submit) => submit.body as Record<string, unknown>);
    expect(bodies).toHaveLength(4);
    expect(bodies[2]).toMatchObject({ prompt: 'a', ...params, seed: 31 });
    expect(bodies[3]).toMatchObject({ prompt: 'b', ...params });
    expect(bodies[3]).not.toHaveProperty('seed');
  });

  it('Rerun of a batch sends its options and asked seed again', async () => {
    const opened = await start('fal');
    const target = { provider: 'fal' as const, endpoint: service!.url };
    const made = await opened.engine.submit({ prompt: 'c', model, params, seed: 8 }, target);
    const ids = made.map((record) => record.localId);
    await settled(ids);
    const { records } = await resend(opened, ids, { as: 'batch' });
    await settled(records.map((record) => record.localId));
    expect(service!.log.submits.at(-1)?.body).toMatchObject({ prompt: 'c', ...params, seed: 8 });
    expect(records[0]?.request).toMatchObject({ params, seed: 8 });
  });
});
