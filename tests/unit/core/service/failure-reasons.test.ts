/**
 * A failed or moderated task's reason is read wherever its service put it: each profile's own
 * fields first, then the answer's `error`, `message`, `detail` or `details` (a string, or an
 * object's `message`), for every profile alike; "without a reason" only when no such string is
 * there. Through the real service client, each profile's failed answer as its service sends it.
 */
import { describe, expect, it } from 'vitest';
import type { ProviderId } from '../../../../shared/domain/providers';
import { PROVIDER_IDS } from '../../../../shared/domain/providers';
import { client, credentials } from './answer-harness';
import { json, type Responder } from './fake-fetch';

const REASON = 'The model ran out of memory on this size.';
const FIELDS = ['error', 'message', 'detail', 'details'] as const;

/**
 * Each profile's answer that ends a task, with `extra` beside its own fields: `failed`, and
 * `moderated` where the service says so by its status word alone. fal says how a task ended in
 * the answer to its result request (a 4xx or 500), after a status that says it is done.
 */
const ENDED: Record<ProviderId, (extra: object, moderated: boolean) => Responder[] | null> = {
  pictor: (extra, moderated) => (moderated ? null : [json(200, { status: 'failed', ...extra })]),
  fal: (extra, moderated) =>
    moderated ? null : [json(200, { status: 'COMPLETED' }), json(422, { ...extra })],
  replicate: (extra, moderated) =>
    moderated ? null : [json(200, { id: 't1', status: 'failed', error: null, ...extra })],
  dashscope: (extra, moderated) =>
    moderated
      ? null
      : [
          json(200, {
            request_id: 'r1',
            output: { task_id: 't1', task_status: 'FAILED' },
            ...extra,
          }),
        ],
  bfl: (extra, moderated) => [
    json(200, {
      id: 't1',
      status: moderated ? 'Content Moderated' : 'Error',
      result: null,
      details: null,
      ...extra,
    }),
  ],
  // ComfyUI's history entry under the prompt id, the reason inside it; it has no moderation.
  comfyui: (extra, moderated) =>
    moderated
      ? null
      : [
          json(200, {
            t1: { status: { status_str: 'error', completed: false, messages: [] }, ...extra },
          }),
        ],
};

async function endedTask(provider: ProviderId, responders: Responder[]) {
  const { client: service } = clientOf(responders);
  return service.getTask(
    { ...credentials, provider },
    {
      taskId: 't1',
      request: { prompt: 'a fox', model: 'fal-ai/flux/schnell' },
    },
  );
}

function clientOf(responders: Responder[]) {
  let call = 0;
  return client((url, init) => {
    const responder = responders[Math.min(call, responders.length - 1)]!;
    call += 1;
    return responder(url, init);
  });
}

const CASES = PROVIDER_IDS.flatMap((provider) =>
  [false, true].flatMap((moderated) =>
    FIELDS.flatMap((field) =>
      [
        { shape: 'a string', value: REASON },
        { shape: 'an object with a message', value: { message: REASON, type: 'x' } },
      ].map(({ shape, value }) => ({ provider, moderated, field, shape, value })),
    ),
  ),
).filter(({ provider, moderated }) => ENDED[provider]({}, moderated) !== null);

describe('the reason of an ended task', () => {
  it.each(CASES)(
    '$provider ($moderated moderated): a reason in `$field` as $shape is shown',
    async ({ provider, moderated, field, value }) => {
      const responders = ENDED[provider]({ [field]: value }, moderated)!;
      const task = await endedTask(provider, responders);
      expect(task.status).toBe('failed');
      if (task.status !== 'failed') return;
      expect(task.message).toContain(REASON);
      expect(task.sentence).toBeUndefined();
      if (moderated) expect(task.outcome).toBe('moderated');
    },
  );

  it.each(PROVIDER_IDS)(
    '%s: with no such string the task reads failed without a reason',
    async (provider) => {
      const responders = ENDED[provider]({ message: '   ', detail: null, details: {} }, false)!;
      await expect(endedTask(provider, responders)).resolves.toEqual({
        status: 'failed',
        message: 'The service reported the task as failed without a reason.',
        sentence: { key: 'error.service.failedWithoutReason' },
      });
    },
  );

  it.each(FIELDS)(
    'comfyui: a reason in `%s` beside the prompt’s entry (a whole history) is not its',
    async (field) => {
      const whole = json(200, {
        t1: { status: { status_str: 'error', completed: false, messages: [] } },
        [field]: REASON,
      });
      await expect(endedTask('comfyui', [whole])).resolves.toMatchObject({
        status: 'failed',
        sentence: { key: 'error.service.failedWithoutReason' },
      });
    },
  );

  it("keeps the profile's own documented reason before the common fields", async () => {
    const bfl = ENDED.bfl({ details: { error: 'documented' }, error: 'common' }, false)!;
    await expect(endedTask('bfl', bfl)).resolves.toMatchObject({ message: 'documented' });
    const dashscope = [
      json(200, {
        output: { task_id: 't1', task_status: 'FAILED', code: 'E1', message: 'documented' },
        message: 'common',
      }),
    ];
    await expect(endedTask('dashscope', dashscope)).resolves.toMatchObject({
      message: 'documented (E1)',
    });
  });

  it('reads BFL\'s `{"status":"Error","error":…}` (the reported answer)', async () => {
    const task = await endedTask('bfl', [json(200, { status: 'Error', error: REASON })]);
    expect(task).toEqual({ status: 'failed', message: REASON });
  });

  it('bounds and cleans a fallback reason as every reason', async () => {
    const long = `line one\u0007\nline two ${'x'.repeat(5_000)}`;
    const task = await endedTask('bfl', [json(200, { status: 'Error', message: long })]);
    expect(task.status).toBe('failed');
    if (task.status !== 'failed') return;
    expect(task.message.length).toBeLessThanOrEqual(500);
    expect(task.message).toMatch(/^line one line two x+…$/);
  });

  it('never shows the key a fallback reason carries', async () => {
    const said = `bad key ${credentials.key} for this model`;
    const task = await endedTask('replicate', [json(200, { status: 'failed', detail: said })]);
    expect(task.status).toBe('failed');
    expect(JSON.stringify(task)).not.toContain(credentials.key);
  });

  it('reads nothing more from an answer that is not an ended one', async () => {
    const task = await endedTask('bfl', [json(200, { status: 'Pending', message: 'hello' })]);
    expect(task).toEqual({ status: 'processing' });
  });
});
