/**
 * "Can this task be varied" asked of a task's record and of the gallery's item made from it gives
 * one answer, for every shipped model of every service (and a model unknown, padded or absent),
 * whether or not the service reported a seed: the rule is the model's, never the report's.
 */
import { describe, expect, it } from 'vitest';
import { galleryItemOf } from '../../../../shared/domain/gallery-item';
import { SHIPPED_PARAM_SCHEMAS } from '../../../../shared/domain/model-param-schemas';
import { commonParam } from '../../../../shared/domain/model-params';
import { PROVIDER_IDS } from '../../../../shared/domain/providers';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { canVary } from '../../../../renderer/lib/can-vary';
import { makeImage, makeTask } from '../../../support/task-records';

const cases = PROVIDER_IDS.flatMap((provider) =>
  [...Object.keys(SHIPPED_PARAM_SCHEMAS[provider]), 'no-such-model', undefined].map((model) => ({
    provider,
    model,
  })),
);

function recordOf(provider: TaskRecord['provider'], model: string | undefined, seed?: number) {
  const base = makeTask({ provider, images: [makeImage(0)] });
  const { model: _asked, ...request } = base.request;
  return {
    ...base,
    request: model === undefined ? request : { ...request, model },
    ...(seed === undefined ? {} : { seed }),
  } satisfies TaskRecord;
}

describe('canVary', () => {
  it.each(cases)('$provider $model: the record and its image agree, seed or none', (shape) => {
    const answers = [undefined, 7, 0].flatMap((seed) => {
      const record = recordOf(shape.provider, shape.model, seed);
      return [canVary(record), canVary(galleryItemOf(record, record.images[0]!))];
    });
    expect(new Set(answers).size).toBe(1);
  });

  it('is true exactly where the model takes a seed, its name padded or not', () => {
    for (const { provider, model } of cases) {
      if (model === undefined) continue;
      const schema = SHIPPED_PARAM_SCHEMAS[provider][model];
      if (schema === undefined) continue;
      const takes = commonParam(schema, 'seed') !== undefined;
      expect(canVary(recordOf(provider, model)), `${provider} ${model}`).toBe(takes);
      expect(canVary(recordOf(provider, ` ${model} `)), `${provider} padded`).toBe(takes);
    }
    expect(canVary(recordOf('fal', undefined))).toBe(false);
  });
});
