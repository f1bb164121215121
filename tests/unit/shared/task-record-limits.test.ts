/**
 * Every date, count and string of a task record is range-checked where it is
 * parsed. Each field is tried at its limit (accepted) and just past it, plus the values a
 * crafted sidecar or an old build could hold (a date no `Date` can show, fractions, negatives).
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_ACCOUNT_CHARS,
  MAX_COUNT,
  MAX_DATE_MS,
  MAX_DETAIL_CHARS,
  MAX_ENDPOINT_CHARS,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_SIDE,
  MAX_IMAGES_PER_TASK,
  MAX_LOCAL_ID_CHARS,
  MAX_MESSAGE_CHARS,
  MAX_PATH_CHARS,
  MAX_TASK_ID_CHARS,
  MAX_URL_CHARS,
  MIN_DATE_MS,
} from '../../../shared/domain/limits';
import {
  taskRecordSchema,
  type ImageRecord,
  type TaskRecord,
} from '../../../shared/domain/task-record';
import { makeTaskRecord } from '../../support/task-records';

const NOW = Date.UTC(2026, 0, 15, 12);

function image(overrides: Partial<ImageRecord> = {}): ImageRecord {
  return {
    index: 0,
    url: 'https://cdn.example.com/a.png',
    state: 'saved',
    file: '2026/01/task/image-1.png',
    thumbnail: '2026/01/task/.thumbs/image-1.webp',
    width: 64,
    height: 48,
    bytes: 1234,
    mime: 'image/png',
    attempts: 1,
    savedAt: NOW,
    favourite: false,
    error: 'An earlier attempt failed.',
    ...overrides,
  };
}

function record(overrides: Partial<TaskRecord> = {}): TaskRecord {
  return makeTaskRecord(
    {
      localId: 'b1c2d3e4-0000-4000-8000-000000000001',
      taskId: 'task-1',
      request: { prompt: 'A lighthouse' },
      error: { kind: 'server', message: 'It failed.', detail: 'HTTP 500', httpStatus: 500 },
      finishedAt: NOW,
      polls: 3,
      lastPolledAt: NOW,
      images: [image()],
      folder: '2026/01/task',
      ...overrides,
    },
    NOW,
  );
}

const DATE_FIELDS = [
  'createdAt',
  'updatedAt',
  'submittedAt',
  'finishedAt',
  'watchStartedAt',
  'lastPolledAt',
] as const;

/** Dates a crafted file can hold that no date formatter or sort should ever see. */
const BAD_DATES = [1e16, 8.64e15 + 1, MAX_DATE_MS + 1, -1, -8.64e15, NOW + 0.5, Infinity, NaN];

function parses(value: unknown): boolean {
  return taskRecordSchema().safeParse(value).success;
}

describe('dates', () => {
  it.each(DATE_FIELDS)('%s accepts the limits and refuses everything outside them', (field) => {
    expect(parses(record({ [field]: MIN_DATE_MS }))).toBe(true);
    expect(parses(record({ [field]: MAX_DATE_MS }))).toBe(true);
    for (const bad of BAD_DATES) expect(parses(record({ [field]: bad })), String(bad)).toBe(false);
  });

  it('an image savedAt has the same limits', () => {
    expect(parses(record({ images: [image({ savedAt: MAX_DATE_MS })] }))).toBe(true);
    for (const bad of BAD_DATES)
      expect(parses(record({ images: [image({ savedAt: bad })] })), String(bad)).toBe(false);
  });

  it('every accepted date can be formatted', () => {
    for (const ms of [MIN_DATE_MS, MAX_DATE_MS, ...BAD_DATES]) {
      const accepted = parses(record({ createdAt: ms }));
      if (accepted) expect(() => new Date(ms).toISOString()).not.toThrow();
    }
  });
});

describe('counts', () => {
  const cases: Array<[string, (value: number) => TaskRecord, number, number]> = [
    ['polls', (polls) => record({ polls }), 0, MAX_COUNT],
    ['attempts', (attempts) => record({ images: [image({ attempts })] }), 0, MAX_COUNT],
    ['bytes', (bytes) => record({ images: [image({ bytes })] }), 0, MAX_IMAGE_BYTES],
    ['width', (width) => record({ images: [image({ width })] }), 1, MAX_IMAGE_SIDE],
    ['height', (height) => record({ images: [image({ height })] }), 1, MAX_IMAGE_SIDE],
    ['index', (index) => record({ images: [image({ index })] }), 0, MAX_IMAGES_PER_TASK - 1],
    [
      'httpStatus',
      (httpStatus) => record({ error: { kind: 'server', message: 'x', httpStatus } }),
      100,
      599,
    ],
  ];
  it.each(cases)('%s is a whole number within its limits', (_name, build, min, max) => {
    expect(parses(build(min))).toBe(true);
    expect(parses(build(max))).toBe(true);
    for (const bad of [min - 1, max + 1, min + 0.5, Infinity, NaN, 1e300])
      expect(parses(build(bad)), String(bad)).toBe(false);
  });

  it('a task holds at most MAX_IMAGES_PER_TASK images', () => {
    const images = (count: number) =>
      Array.from({ length: count }, (_, index) => image({ index: index % MAX_IMAGES_PER_TASK }));
    expect(parses(record({ images: images(MAX_IMAGES_PER_TASK) }))).toBe(true);
    expect(parses(record({ images: images(MAX_IMAGES_PER_TASK + 1) }))).toBe(false);
  });
});

describe('strings', () => {
  const cases: Array<[string, (text: string) => TaskRecord, number]> = [
    ['localId', (localId) => record({ localId }), MAX_LOCAL_ID_CHARS],
    ['taskId', (taskId) => record({ taskId }), MAX_TASK_ID_CHARS],
    ['endpoint', (endpoint) => record({ endpoint }), MAX_ENDPOINT_CHARS],
    ['account', (account) => record({ account }), MAX_ACCOUNT_CHARS],
    ['folder', (folder) => record({ folder }), MAX_PATH_CHARS],
    [
      'error.message',
      (message) => record({ error: { kind: 'server', message } }),
      MAX_MESSAGE_CHARS,
    ],
    [
      'error.detail',
      (detail) => record({ error: { kind: 'server', message: 'x', detail } }),
      MAX_DETAIL_CHARS,
    ],
    ['image.url', (url) => record({ images: [image({ url })] }), MAX_URL_CHARS],
    ['image.file', (file) => record({ images: [image({ file })] }), MAX_PATH_CHARS],
    ['image.thumbnail', (thumbnail) => record({ images: [image({ thumbnail })] }), MAX_PATH_CHARS],
    ['image.error', (error) => record({ images: [image({ error })] }), MAX_MESSAGE_CHARS],
    ['request.prompt', (prompt) => record({ request: { prompt } }), 32_000],
  ];
  it.each(cases)('%s is refused past its limit', (_name, build, max) => {
    expect(parses(build('x'.repeat(max)))).toBe(true);
    expect(parses(build('x'.repeat(max + 1)))).toBe(false);
    expect(parses(build('x'.repeat(1024 * 1024)))).toBe(false);
  });
});

describe('imported', () => {
  it('is optional (absent means the record is the app’s own) and a boolean when present', () => {
    expect(taskRecordSchema().parse(record()).imported).toBeUndefined();
    expect(taskRecordSchema().parse(record({ imported: true })).imported).toBe(true);
    expect(parses({ ...record(), imported: 'yes' })).toBe(false);
  });
});

describe('board ("Generate into")', () => {
  const deepest = Array.from({ length: 5 }, () => '\u{1F3A8}'.repeat(100)).join('/');

  it('keeps a board’s path as the library stores it, up to the deepest and longest', () => {
    expect(taskRecordSchema().parse(record({ board: 'Clients/Acme' })).board).toBe('Clients/Acme');
    expect(taskRecordSchema().parse(record({ board: deepest })).board).toBe(deepest);
    expect(taskRecordSchema().parse(record()).board).toBeUndefined();
  });

  it.each([
    ['an empty name', 'Clients//Acme'],
    ['spaces around a name (not the stored form)', ' Clients/Acme'],
    ['a control character', 'Cli\u0007ents'],
    ['a bidirectional override', 'Cli\u202eents'],
    ['a sixth level', `${deepest}/more`],
    ['a name past 100 characters', 'n'.repeat(101)],
    ['a megabyte', 'x'.repeat(1024 * 1024)],
    ['a number', 7],
  ])('drops %s, keeping the task', (_what, board) => {
    const parsed = taskRecordSchema().safeParse({ ...record(), board });
    expect(parsed.success).toBe(true);
    expect(parsed.data?.board).toBeUndefined();
    expect(parsed.data?.localId).toBe(record().localId);
  });
});

describe('the compare a task was sent in', () => {
  const compare = { group: '7d6f1c2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f', slot: 2, label: 'fal.ai' };

  it('keeps it when a later version adds a field to it, dropping that field', () => {
    const parsed = taskRecordSchema().safeParse({
      ...record(),
      compare: { ...compare, seed: 42, winner: true },
    });
    expect(parsed.success).toBe(true);
    expect(parsed.data?.compare).toEqual(compare);
  });

  it.each([
    ['a group that is no id', { ...compare, group: 'not-a-uuid' }],
    ['a seventh slot', { ...compare, slot: 7 }],
    ['a label of bidi controls only', { ...compare, label: '\u202e\u202c' }],
  ])('drops %s, keeping the task', (_what, field) => {
    const parsed = taskRecordSchema().safeParse({ ...record(), compare: field });
    expect(parsed.success).toBe(true);
    expect(parsed.data?.compare).toBeUndefined();
  });
});
