/**
 * fal keeps a request under the address of the model it was made with. A task known only by its
 * id (tracked, or imported without the addresses fal gave) is asked about under the model its
 * record names, never under the default model's: a wrong guess would ask another app, whose
 * "no such request" would end a task still running. Without a model the poll is refused before
 * any request, in a sentence; the engine refuses to track such a task, and the CLI's waiting line
 * says how to name the model. The other services find a task by its id alone.
 */
import { describe, expect, it } from 'vitest';
import { PROVIDER_IDS } from '../../../../../shared/domain/providers';
import { sentence } from '../../../../../shared/i18n/sentence';
import { ServiceClient } from '../../../../../electron/core/service/service-client';
import { taskAddressProblem } from '../../../../../electron/core/service/providers/task-address';
import { trackedRequest } from '../../../../../electron/core/engine/request-check';
import { EngineInputError } from '../../../../../electron/core/engine/engine-types';
import { problemLine } from '../../../../../electron/cli/resume-lines';
import { makeTaskRecord } from '../../../../support/task-records';
import { serviceError } from '../answer-harness';
import { fakeFetch, json } from '../fake-fetch';

const FAL = {
  baseUrl: 'https://queue.fal.run',
  key: 'fal-k',
  keyFingerprint: 'a',
  provider: 'fal' as const,
};

function falClient() {
  const fake = fakeFetch(json(202, { status: 'IN_PROGRESS' }));
  return { client: new ServiceClient({ fetch: fake.fetch }), calls: fake.calls };
}

describe('a fal task known by its id', () => {
  it('is asked about under the model its record names', async () => {
    const { client, calls } = falClient();
    const request = { prompt: 'p', model: 'fal-ai/flux-pro/v1.1' };
    await expect(client.getTask(FAL, { taskId: 'r-1', request })).resolves.toMatchObject({
      status: 'processing',
    });
    expect(calls.map((call) => call.url)).toEqual([
      'https://queue.fal.run/fal-ai/flux-pro/requests/r-1/status',
    ]);
  });

  it('without a model, is refused before any request, never guessed', async () => {
    const { client, calls } = falClient();
    for (const request of [{ prompt: 'p' }, { prompt: 'p', model: '  ' }]) {
      const error = await serviceError(client.getTask(FAL, { taskId: 'r-1', request }));
      expect(error.kind).toBe('config');
      expect(error.sentence).toEqual(
        sentence('error.service.taskNeedsModel', { service: 'fal.ai' }),
      );
      expect(error.message).toBe(
        'fal.ai finds a request only under the address of the model it was made with, and no model is named for this one, so Pictor cannot ask about it.',
      );
    }
    expect(calls).toEqual([]);
  });

  it('with the addresses fal gave, needs no model', async () => {
    const { client, calls } = falClient();
    const poll = 'https://queue.fal.run/fal-ai/flux-pro/requests/r-1/status';
    await client.getTask(FAL, { taskId: 'r-1', handles: { poll }, request: { prompt: 'p' } });
    expect(calls.map((call) => call.url)).toEqual([poll]);
  });

  it('is the only kind of task an id alone does not find', () => {
    for (const provider of PROVIDER_IDS) {
      expect(taskAddressProblem(provider, { prompt: 'p' }), provider).toEqual(
        provider === 'fal' ? sentence('error.service.taskNeedsModel', { service: 'fal.ai' }) : null,
      );
    }
    expect(taskAddressProblem('fal', { prompt: 'p', model: 'fal-ai/flux/dev' })).toBeNull();
    expect(taskAddressProblem('fal', { prompt: 'p', model: '../x' })).toMatchObject({
      key: 'error.service.modelIdUnusable',
    });
  });
});

describe('tracking a task by its id', () => {
  it('records the model given, and refuses a fal task without one', () => {
    expect(trackedRequest('r-1', { model: ' fal-ai/flux/dev ' }, 'fal')).toEqual({
      prompt: 'Task r-1 (created outside Pictor)',
      model: 'fal-ai/flux/dev',
    });
    expect(trackedRequest('r-1', { prompt: 'mine' }, 'replicate')).toEqual({ prompt: 'mine' });
    expect(() => trackedRequest('r-1', {}, 'fal')).toThrow(EngineInputError);
    expect(() => trackedRequest('r-1', {}, 'fal')).toThrow(/no model is named for this one/);
  });

  it('says on the command line how to name the model of a task that waits for one', () => {
    const waiting = makeTaskRecord({
      taskId: 'r-1',
      provider: 'fal',
      endpoint: 'https://queue.fal.run',
      status: 'processing',
      hold: 'awaiting_key',
      finishedAt: null,
      error: {
        kind: 'config',
        message:
          'fal.ai finds a request only under the address of the model it was made with, and no model is named for this one, so Pictor cannot ask about it.',
        sentence: sentence('error.service.taskNeedsModel', { service: 'fal.ai' }),
      },
    });
    expect(problemLine(waiting, { command: 'pictor resume r-1', serviceNamed: true })).toBe(
      'Task r-1 is waiting: fal.ai finds a request only under the address of the model it was made with, and no model is named for this one, so Pictor cannot ask about it: track it again with --model and the model it was made with. The id is kept.',
    );
  });
});
