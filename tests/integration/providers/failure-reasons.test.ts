/**
 * A failed task's reason, wherever its service put it, end to end: the real core against each
 * dialect of the demo service on loopback, whose answer that ends the task (scripted as a fault)
 * carries the reason in `error`, `message`, `detail` or `details` instead of the field its
 * service documents. The task ends failed with that reason, never "failed without a reason".
 */
import { describe, expect, it } from 'vitest';
import { PROVIDER_IDS, type ProviderId } from '../../../shared/domain/providers';
import type { FaultRule } from '../../../electron/demo-service/types';
import { providerRig } from './provider-harness';
import { submitOne, untilAccepted } from './provider-scenarios';

const FIELDS = ['error', 'message', 'detail', 'details'] as const;

/**
 * The answers that end task `taskId` in `provider`'s words, with the reason in `field` only
 * (ComfyUI's history is read at the entry under the task's prompt id only).
 */
function endedAnswers(
  provider: ProviderId,
  field: string,
  reason: string,
  taskId: string,
): FaultRule[] {
  const body = (status: number, value: object): FaultRule => ({
    route: 'poll',
    times: 1,
    effect: { type: 'body', status, contentType: 'application/json', body: JSON.stringify(value) },
  });
  const said = { [field]: reason };
  switch (provider) {
    case 'pictor':
      return [body(200, { id: 't', status: 'failed', ...said })];
    case 'replicate':
      return [body(200, { id: 't', status: 'failed', error: null, ...said })];
    case 'dashscope':
      return [body(200, { request_id: 'r', output: { task_status: 'FAILED' }, ...said })];
    case 'bfl':
      return [body(200, { id: 't', status: 'Error', result: null, details: null, ...said })];
    case 'comfyui':
      return [
        // In the prompt's own entry: beside it, a reason is no task's (a whole history's).
        body(200, {
          [taskId]: { status: { status_str: 'error', completed: false, messages: [] }, ...said },
        }),
      ];
    case 'fal':
      // Its status says done; the result request answers how the task ended.
      return [body(200, { status: 'COMPLETED' }), body(422, said)];
  }
}

describe('the reason of a failed task, against each dialect', () => {
  it.each(PROVIDER_IDS)(
    '%s: a reason in error, message, detail or details is shown',
    async (provider) => {
      const rig = await providerRig(provider, { durationMs: 3_600_000 });
      rig.core.engine.start();
      for (const field of FIELDS) {
        const reason = `The GPU ran out of memory (${field}).`;
        const localId = await submitOne(rig, `a lake, reason in ${field}`);
        const { taskId } = await untilAccepted(rig, localId);
        for (const rule of endedAnswers(provider, field, reason, taskId ?? ''))
          rig.service.addFault(rule);
        const [ended] = await rig.settle([localId]);
        expect(ended, field).toMatchObject({ status: 'failed', error: { message: reason } });
        expect(ended!.error?.sentence, field).toBeUndefined();
      }
    },
  );
});
