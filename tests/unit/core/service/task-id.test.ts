import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../../electron/core/service/service-error';
import { checkTaskId, taskPath } from '../../../../electron/core/service/task-id';
import { requests } from '../../../../shared/ipc/contract';

function refusal(id: string): ServiceError {
  try {
    checkTaskId(id);
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error(`${JSON.stringify(id)} was accepted`);
}

describe('checkTaskId', () => {
  it.each([
    ['task_123', 'task_123'],
    ['  task_123\n', 'task_123'],
    ['x..y/z', 'x..y/z'],
    ['a/b', 'a/b'],
    ['%2F', '%2F'],
    ['a?b', 'a?b'],
    ['a#b', 'a#b'],
    ['...', '...'],
    ['ünïcødé-任务', 'ünïcødé-任务'],
    ['x'.repeat(256), 'x'.repeat(256)],
  ])('accepts %j', (id, trimmed) => {
    expect(checkTaskId(id)).toBe(trimmed);
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['x'.repeat(257), 'longer than 256'],
    ['x'.repeat(300), 'longer than 256'],
    ['a\u0000b', 'control'],
    ['a\u007fb', 'control'],
    ['a\u0085b', 'control'],
    ['a\rb', 'control'],
    // Bidirectional controls (Unicode's Bidi_Control), each of them.
    ...[...'\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069'].map(
      (bidi) => [`abc${bidi}fed`, 'control'],
    ),
    ['a b', 'spaces'],
    ['a\u00a0b', 'spaces'],
    // A line separator is a break to some readers and none to others: the rule every kept id is
    // held to refuses it (shared/domain/limits.ts's TASK_ID_CONTROL), before the spaces check.
    ['a\u2028b', 'control'],
    // Characters that draw nothing: `abc\u200bfed` shows as `abcfed` (one of each kind here;
    // every one is tried in tests/unit/shared/control-characters.test.ts).
    ...[...'\u00ad\u200b\u2060\ufeff\u180e\ufe0f\u3164\u{e0041}\u{e0100}'].map((invisible) => [
      `abc${invisible}fed`,
      'control',
    ]),
    ['.', '"."'],
    ['..', '"."'],
    [' .. ', '"."'],
    ['../x', 'path part'],
    ['a/../b', 'path part'],
    ['a\\..', 'path part'],
    ['..%2Fx', 'path part'],
    ['%2e%2E', 'path part'],
    ['%252e%252e%252fx', 'path part'],
    ['a\ud800b', 'cannot be sent'],
  ])('refuses %j (%s) as a config error with a sentence', (id, words) => {
    const error = refusal(id);
    expect(error.kind).toBe('config');
    expect(error.mayHaveReachedService).toBe(false);
    expect(error.message).toContain(words);
    expect(error.message).toMatch(/^[A-Z].*\.$/);
  });

  it('keeps only ids the window can copy (app:copyText takes every one)', () => {
    const copyable = (text: string) => requests['app:copyText'].input.safeParse({ text }).success;
    const unit = fc.oneof(
      fc.constantFrom(...'\u061c\u200e\u202e\u2066\u2069\u2028\u0085\u001b'),
      fc.constantFrom(...'ab1-_/%.'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    );
    fc.assert(
      fc.property(fc.string({ unit, minLength: 1, maxLength: 40 }), (raw) => {
        let kept: string;
        try {
          kept = checkTaskId(raw);
        } catch {
          return;
        }
        expect(copyable(kept), JSON.stringify(kept)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('refuses a value that is not a string (untyped callers)', () => {
    expect(refusal(42 as unknown as string).kind).toBe('config');
  });
});

describe('taskPath', () => {
  it('keeps every accepted id in one segment under /v1/tasks/', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 256, unit: 'binary' }), (raw) => {
        let id: string;
        try {
          id = checkTaskId(raw);
        } catch {
          return;
        }
        const url = new URL(`https://service.example/base${taskPath(raw)}`);
        const segments = url.pathname.split('/');
        expect(segments.slice(0, 4)).toEqual(['', 'base', 'v1', 'tasks']);
        expect(segments).toHaveLength(5);
        expect(decodeURIComponent(segments[4]!)).toBe(id);
        expect(url.search).toBe('');
        expect(url.hash).toBe('');
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['x/..y', '/v1/tasks/x%2F..y'],
    ['a/b', '/v1/tasks/a%2Fb'],
    ['%2F', '/v1/tasks/%252F'],
    ['a?b#c', '/v1/tasks/a%3Fb%23c'],
  ])('encodes %j as %s', (id, path) => {
    expect(taskPath(id)).toBe(path);
  });
});
