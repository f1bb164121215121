/**
 * One resolver for every command that takes a task or compare id (task-ids.ts): the whole local
 * id, the service's id, or the start of either as generate prints it short; a start that fits
 * several is refused with a sentence that does not repeat it; `_` and `%` are ordinary characters.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { UsageError } from '../../../electron/core/command-line/command-line';
import { findCompareGroup, findTask, compareIdText } from '../../../electron/cli/task-ids';
import { makeTaskRecord } from '../../support/task-records';

const GROUP_A = '38c5fc8a-34d1-411a-bedd-9a5cba178b90';
const GROUP_B = '38c5fc8a-ffff-411a-bedd-9a5cba178b90';
const GROUP_C = '7a2e0b14-34d1-411a-bedd-9a5cba178b90';

let history: HistoryStore;
beforeEach(() => {
  history = HistoryStore.open(':memory:');
  const compare = (group: string, slot: number) => ({ compare: { group, slot, label: 'demo' } });
  history.putMany([
    makeTaskRecord({ localId: '4b211e38-0000-4000-8000-000000000001', taskId: 'task_9a48' }),
    makeTaskRecord({ localId: '4b21ffff-0000-4000-8000-000000000002', taskId: 'task_1c07' }),
    makeTaskRecord({ localId: 'c0ffee00-0000-4000-8000-000000000003', taskId: 'job_x%y' }),
    makeTaskRecord({ localId: 'a1a1a1a1-0000-4000-8000-000000000004', ...compare(GROUP_A, 1) }),
    makeTaskRecord({ localId: 'b2b2b2b2-0000-4000-8000-000000000005', ...compare(GROUP_B, 1) }),
    makeTaskRecord({ localId: 'd3d3d3d3-0000-4000-8000-000000000006', ...compare(GROUP_C, 2) }),
  ]);
});
afterEach(() => history.close());

const localOf = (text: string) => findTask(history, text)?.localId;

describe('a task id as the commands take it', () => {
  it('finds a task by its local id, its service id, or the start of either', () => {
    expect(localOf('4b211e38-0000-4000-8000-000000000001')).toMatch(/^4b211e38/);
    expect(localOf('task_1c07')).toMatch(/^4b21ffff/);
    // The short id generate's progress and the gallery folder show.
    expect(localOf('4b211e38')).toMatch(/^4b211e38/);
    expect(localOf(' 4b211 ')).toMatch(/^4b211e38/);
    expect(localOf('task_9')).toMatch(/^4b211e38/);
    expect(localOf('c0ffee')).toMatch(/^c0ffee00/);
  });

  it('finds nothing for an id no task starts with, or a start shorter than 4', () => {
    for (const text of ['', '4b2', 'c0f', 'ffffffff', 'task_9a48x', 'job_%']) {
      expect(localOf(text), text).toBeUndefined();
    }
    // `_` and `%` are the id's own characters, never wildcards.
    expect(localOf('job_x%')).toMatch(/^c0ffee00/);
    expect(localOf('tas_')).toBeUndefined();
  });

  it('refuses a start several tasks share, without repeating it', () => {
    for (const text of ['4b21', 'task_']) {
      expect(() => findTask(history, text)).toThrow(UsageError);
      expect(() => findTask(history, text)).toThrow(/start of more than one task/);
      try {
        findTask(history, text);
      } catch (error) {
        expect((error as Error).message).not.toContain(text);
      }
    }
  });
});

describe('a compare group id as the commands take it', () => {
  it('finds a group by its id or its start, refuses a shared start', () => {
    expect(findCompareGroup(history, GROUP_C)).toBe(GROUP_C);
    expect(findCompareGroup(history, '7a2e0b14')).toBe(GROUP_C);
    expect(findCompareGroup(history, '38C5FC8A-34')).toBe(GROUP_A);
    expect(() => findCompareGroup(history, '38c5fc8a')).toThrow(/start of more than one compare/);
    expect(findCompareGroup(history, 'ffffffff')).toBeUndefined();
    expect(findCompareGroup(history, '7a2')).toBeUndefined();
  });

  it('takes a UUID or its start on the command line, and nothing else', () => {
    expect(compareIdText(` ${GROUP_A.toUpperCase()} `, '--compare')).toBe(GROUP_A);
    expect(compareIdText('38c5fc8a', 'compare show')).toBe('38c5fc8a');
    for (const text of ['not-a-group', '38c', 'sk-live-0123456789abcdef', '38c5 fc8a']) {
      expect(() => compareIdText(text, 'compare show'), text).toThrow(
        /^compare show takes a compare group id as compare printed it/,
      );
    }
  });
});
