import { describe, expect, it } from 'vitest';
import type { ActivityUpdate } from '../../../../electron/app/os/task-activity';
import {
  isInFlight,
  progressDisplay,
  sameDisplay,
  TaskActivity,
} from '../../../../electron/app/os/task-activity';

function update(localId: string, overrides: Partial<ActivityUpdate> = {}): ActivityUpdate {
  return { localId, status: 'processing', hold: null, downloads: 0, ...overrides };
}

describe('isInFlight', () => {
  it.each([
    [{ status: 'submitting' }, true],
    [{ status: 'processing' }, true],
    [{ status: 'processing', hold: 'timed_out' }, false],
    [{ status: 'processing', hold: 'awaiting_key' }, false],
    [{ status: 'completed' }, false],
    [{ status: 'completed', downloads: 2 }, true],
    [{ status: 'failed' }, false],
    [{ status: 'submit_unknown' }, false],
  ] as const)('%o → %s', (overrides, expected) => {
    expect(isInFlight(update('t', overrides as Partial<ActivityUpdate>))).toBe(expected);
  });
});

describe('progressDisplay per platform', () => {
  it('macOS: a badge with the count, no bar', () => {
    expect(progressDisplay('darwin', 3, 1)).toEqual({
      badgeCount: 3,
      progress: null,
      mode: 'none',
    });
    expect(progressDisplay('darwin', 0, 0)).toEqual({
      badgeCount: 0,
      progress: null,
      mode: 'none',
    });
  });

  it('Windows: indeterminate until one finishes, then the fraction; removed when idle', () => {
    expect(progressDisplay('win32', 2, 0)).toEqual({
      badgeCount: null,
      progress: 2,
      mode: 'indeterminate',
    });
    expect(progressDisplay('win32', 3, 1)).toEqual({
      badgeCount: null,
      progress: 0.25,
      mode: 'normal',
    });
    expect(progressDisplay('win32', 0, 0)).toEqual({
      badgeCount: null,
      progress: -1,
      mode: 'none',
    });
  });

  it('Linux: the launcher badge and the fraction (no indeterminate bar there)', () => {
    expect(progressDisplay('linux', 2, 0)).toEqual({ badgeCount: 2, progress: 0, mode: 'normal' });
    expect(progressDisplay('linux', 1, 3)).toEqual({
      badgeCount: 1,
      progress: 0.75,
      mode: 'normal',
    });
    expect(progressDisplay('linux', 0, 0)).toEqual({ badgeCount: 0, progress: -1, mode: 'none' });
  });
});

describe('TaskActivity', () => {
  it('counts a batch from the first task in flight until nothing runs', () => {
    const activity = new TaskActivity('win32');
    expect(activity.update(update('a', { status: 'submitting' })).progress).toBe(2);
    activity.update(update('b'));
    activity.update(update('c'));
    activity.update(update('d'));
    // The same task again changes nothing.
    expect(activity.update(update('a')).mode).toBe('indeterminate');
    expect(activity.update(update('a', { status: 'completed' })).progress).toBe(0.25);
    expect(activity.update(update('b', { status: 'failed' })).progress).toBe(0.5);
    // A completed task still downloading is in flight.
    expect(activity.update(update('c', { status: 'completed', downloads: 1 })).progress).toBe(0.5);
    expect(activity.update(update('c', { status: 'completed' })).progress).toBe(0.75);
    expect(activity.update(update('d', { status: 'completed' }))).toEqual({
      badgeCount: null,
      progress: -1,
      mode: 'none',
    });
    // The next batch starts from zero.
    expect(activity.update(update('e')).mode).toBe('indeterminate');
  });

  it('a held task leaves the count', () => {
    const activity = new TaskActivity('darwin');
    activity.update(update('a'));
    expect(activity.update(update('b')).badgeCount).toBe(2);
    expect(activity.update(update('a', { hold: 'timed_out' })).badgeCount).toBe(1);
  });

  it('a finished task never seen in flight changes nothing', () => {
    const activity = new TaskActivity('linux');
    activity.update(update('a'));
    expect(activity.update(update('old', { status: 'completed' }))).toEqual(
      progressDisplay('linux', 1, 0),
    );
  });

  it('a removed task leaves without counting as finished', () => {
    const activity = new TaskActivity('linux');
    activity.update(update('a'));
    activity.update(update('b'));
    expect(activity.remove('a')).toEqual({ badgeCount: 1, progress: 0, mode: 'normal' });
    expect(activity.remove('b')).toEqual({ badgeCount: 0, progress: -1, mode: 'none' });
  });

  it('sameDisplay compares every surface', () => {
    expect(sameDisplay(progressDisplay('linux', 1, 1), progressDisplay('linux', 1, 1))).toBe(true);
    expect(sameDisplay(progressDisplay('linux', 1, 1), progressDisplay('linux', 2, 2))).toBe(false);
    expect(sameDisplay(progressDisplay('win32', 1, 0), progressDisplay('win32', 2, 0))).toBe(true);
  });
});
