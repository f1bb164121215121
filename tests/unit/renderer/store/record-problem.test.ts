/**
 * The window's check of the records it draws (renderer/store/record-problem.ts): it answers as
 * the task schema does, for common records and crafted ones alike, and a record of the common
 * shape is checked without the schema (building it was most of the first frame's script with
 * task rows). The schema is watched, not replaced: the module's own function, counted.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Records from '../../../../shared/domain/task-record';
import type { recordProblem as RecordProblem } from '../../../../renderer/store/record-problem';
import { makeImage, makeTaskRecord } from '../../../support/task-records';

vi.mock(import('../../../../shared/domain/task-record'), async (original) => {
  const actual = await original();
  return { ...actual, taskRecordSchema: vi.fn(actual.taskRecordSchema) };
});

// The project's setup loaded the store (and this module) before the mock: loaded again over it.
let records: typeof Records;
let recordProblem: typeof RecordProblem;
beforeAll(async () => {
  vi.resetModules();
  records = await import('../../../../shared/domain/task-record');
  ({ recordProblem } = await import('../../../../renderer/store/record-problem'));
});

const schemaUses = () => vi.mocked(records.taskRecordSchema).mock.calls.length;

/** The schema's own answer, as recordProblem words it. */
function schemaAnswer(record: unknown): string | null {
  const parsed = records.taskRecordSchema().safeParse(record);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  return `${issue.path.join('.') || 'record'}: ${issue.message}`;
}

/** The record as it crossed a process boundary: a new object, as the list receives it. */
const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const common = () => [
  makeTaskRecord(),
  makeTaskRecord({
    images: [0, 1, 2, 3].map((index) => makeImage(index, { rating: 3, tags: ['a'] })),
    request: { prompt: 'A fox', model: 'model-b', size: '1024x1024', quality: 'hd' },
    folder: '2024/1',
  }),
  makeTaskRecord({ status: 'processing', finishedAt: null, batchId: 'b-1', batchIndex: 2 }),
];

/** Records the plain check is not sure of: the schema decides, and may refuse. */
const crafted = (): unknown[] => {
  const base = makeTaskRecord() as unknown as Record<string, unknown>;
  return [
    { ...base, request: { prompt: '  padded, which zod trims  ' } },
    { ...base, createdAt: 1e16 },
    { ...base, request: { prompt: 42 } },
    { ...base, images: 'not a list' },
    { ...base, images: [{ index: 0 }] },
    { ...base, status: 'nonsense' },
    { ...base, localId: '' },
    { ...base, error: { kind: 'task_failed', message: 'refused' } },
    { ...base, unknownField: true },
    Object.assign(Object.create(null) as object, base),
    [],
  ];
};

describe('the window’s record check', () => {
  beforeEach(() => vi.mocked(records.taskRecordSchema).mockClear());

  it('checks common records without the schema, and finds nothing wrong with them', () => {
    for (const record of common()) {
      expect(recordProblem(json(record))).toBeNull();
      expect(recordProblem(record)).toBeNull();
    }
    expect(schemaUses()).toBe(0);
  });

  it('answers as the schema does for every record, common or crafted', () => {
    // Each side gets records of its own: the answer is kept per record object.
    const [asked, told] = [
      [...common(), ...crafted()],
      [...common(), ...crafted()],
    ];
    asked.forEach((record, index) => {
      expect(recordProblem(record), JSON.stringify(record)).toBe(schemaAnswer(told[index]));
    });
    // The schema takes the padded prompt, the error, the unknown field and the record without a
    // prototype; it refuses the others.
    expect(crafted().map((record) => recordProblem(record) === null)).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
      true,
      true,
      false,
    ]);
  });
});
