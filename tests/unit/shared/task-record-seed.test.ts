/**
 * A task record's `seed` (the seed the service said it used): kept as a whole number from 0 to
 * 2^53 − 1; absent on a record written before seeds; anything else, in a history row or a crafted
 * sidecar, loses the field and keeps the task.
 */
import { describe, expect, it } from 'vitest';
import { parseSidecar, sidecarText } from '../../../electron/core/gallery/sidecar';
import { taskRecordSchema } from '../../../shared/domain/task-record';
import { makeTaskRecord } from '../../support/task-records';

const record = makeTaskRecord({ localId: 'b1c2d3e4-0000-4000-8000-000000000001' });

describe('the seed of a task record', () => {
  it('is kept from 0 to 2^53 − 1', () => {
    for (const seed of [0, 42, 4_294_967_295, Number.MAX_SAFE_INTEGER]) {
      expect(taskRecordSchema().parse({ ...record, seed }).seed).toBe(seed);
    }
  });

  it('is absent on a record written before seeds, which parses as it was', () => {
    expect(record).not.toHaveProperty('seed');
    const parsed = taskRecordSchema().parse(record);
    expect(parsed).toEqual(record);
    expect(parsed.seed).toBeUndefined();
  });

  it.each([
    ['negative', -1],
    ['a fraction', 1.5],
    ['past 2^53 − 1', 2 ** 53],
    ['huge', 1e300],
    ['text', '12345'],
    ['null', null],
    ['an object', { seed: 1 }],
    ['a list', [1]],
    ['true', true],
  ])('that is %s is dropped and the task kept', (_what, seed) => {
    const parsed = taskRecordSchema().safeParse({ ...record, seed });
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual(record);
  });

  it('goes through a sidecar and back', () => {
    const seeded = { ...record, seed: 987_654_321 };
    const read = parseSidecar(sidecarText(seeded));
    expect(read.ok && read.record).toEqual(seeded);
  });

  it('is dropped from a crafted sidecar, whose task is still read', () => {
    const text = sidecarText(record).replace('"status":', '"seed": -7,\n    "status":');
    expect(text).toContain('"seed": -7');
    const read = parseSidecar(text);
    expect(read.ok).toBe(true);
    expect(read.ok && read.record).toEqual(record);
  });
});
