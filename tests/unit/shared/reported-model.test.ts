/** The model a task reports: read from the wire, bounded, and optional on disk. */
import { describe, expect, it } from 'vitest';
import { newTaskRecord, taskRecordSchema } from '../../../shared/domain/task-record';
import { REQUEST_LIMITS } from '../../../shared/domain/limits';
import { normaliseCanonical, readReportedModel } from '../../../shared/service/wire';

/** Today's contract's words read as its profile reads them (core/service/providers/pictor.ts). */
const CONTRACT = { processing: 'running', completed: 'succeeded', failed: 'failed' } as const;
function normaliseTask(task: { status: string } & Record<string, unknown>) {
  return normaliseCanonical({ ...task, status: CONTRACT[task.status as keyof typeof CONTRACT] });
}

const record = newTaskRecord(
  {
    localId: 'local-1',
    taskId: null,
    origin: 'submitted',
    endpoint: 'demo:',
    account: 'acct',
    request: { prompt: 'p' },
  },
  1_700_000_000_000,
);

describe('readReportedModel', () => {
  it.each([
    ['demo-image-1', 'demo-image-1'],
    ['  black-forest-labs/flux-1.1-pro  ', 'black-forest-labs/flux-1.1-pro'],
    ['模型 v2', '模型 v2'],
    ['x'.repeat(REQUEST_LIMITS.model), 'x'.repeat(REQUEST_LIMITS.model)],
  ])('keeps the name %j', (value, kept) => {
    expect(readReportedModel(value)).toBe(kept);
  });

  it.each([
    ['too long', 'x'.repeat(REQUEST_LIMITS.model + 1)],
    ['a megabyte', 'x'.repeat(1024 * 1024)],
    ['a NUL', 'a\u0000b'],
    ['an escape sequence', 'a\u001b[2Jb'],
    ['a bidi override', 'a\u202eb'],
    ['a zero-width joiner', 'a\u200db'],
    ['a paragraph separator', 'a\u2029b'],
    ['blank', '  '],
    ['a number', 7],
    ['null', null],
  ])('drops %s', (_, value) => {
    expect(readReportedModel(value)).toBeUndefined();
  });

  it('comes with every normalised task status that carries one', () => {
    expect(normaliseTask({ status: 'processing', model: 'm-1' })).toEqual({
      status: 'processing',
      reportedModel: 'm-1',
    });
    expect(normaliseTask({ status: 'failed', error: 'x', model: 'm-1' })).toMatchObject({
      reportedModel: 'm-1',
    });
    expect(
      normaliseTask({
        status: 'completed',
        output: { data: [{ url: 'https://a/1' }] },
        model: 'm',
      }),
    ).toMatchObject({ imageUrls: ['https://a/1'], reportedModel: 'm' });
    expect(normaliseTask({ status: 'processing', model: 'a\u0007' })).toEqual({
      status: 'processing',
    });
  });
});

describe('the task record on disk', () => {
  it('parses without the field (histories and sidecars written before it)', () => {
    const parsed = taskRecordSchema().parse(JSON.parse(JSON.stringify(record)));
    expect(parsed.reportedModel).toBeUndefined();
  });

  it('keeps a good value and drops a crafted one without losing the task', () => {
    expect(taskRecordSchema().parse({ ...record, reportedModel: 'm-2' }).reportedModel).toBe('m-2');
    for (const bad of ['a\u202eb', 'x'.repeat(5_000), 12, { a: 1 }]) {
      const parsed = taskRecordSchema().safeParse({ ...record, reportedModel: bad });
      expect(parsed.success).toBe(true);
      expect(parsed.data?.reportedModel).toBeUndefined();
      expect(parsed.data?.localId).toBe('local-1');
    }
  });
});
