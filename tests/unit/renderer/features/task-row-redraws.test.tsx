/**
 * What draws a task row's contents again: a change of its task, and nothing else. The list's count
 * (it arrives just after the first rows are drawn), the tab stop moving between rows and the same
 * records sent again by another view's page (the gallery's first page, loaded once the window is
 * idle) leave the rows' contents as drawn. Counted, not timed: how many times the rows worked out
 * their status (each row's content does once per draw).
 */
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { describeStatus } from '../../../../renderer/features/tasks/task-status';
import type * as TaskStatus from '../../../../renderer/features/tasks/task-status';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage } from '../../../support/task-records';
import { seedHistory, startWiredApp } from '../render-wired-app';

vi.mock('../../../../renderer/features/tasks/task-status', async (importOriginal) => {
  const actual = await importOriginal<typeof TaskStatus>();
  return {
    ...actual,
    describeStatus: vi.fn((...args: Parameters<typeof actual.describeStatus>) =>
      actual.describeStatus(...args),
    ),
  };
});

const statusWorkedOut = vi.mocked(describeStatus);
const rows = () => screen.getAllByRole('article');
const state = () => useAppStore.getState();

/** The window over a history of 100 tasks with a saved image each, its count arrived. */
async function started(): Promise<void> {
  await startWiredApp({
    prepare: (wired) => void seedHistory(wired, 100, () => ({ images: [makeImage(0)] })),
  });
  await waitFor(() => expect(rows()[0]!.getAttribute('aria-setsize')).toBe('100'));
  // The overscan and the next page, drawn after the first frame.
  await waitFor(() => expect(state().tasksIds.length).toBeGreaterThan(30));
  await waitFor(() => expect(rows().length).toBeGreaterThan(7));
}

describe('a task row’s contents are drawn again only when its task changes', () => {
  beforeEach(() => {
    statusWorkedOut.mockClear();
  });
  afterEach(() => vi.restoreAllMocks());

  it('not when the list’s count changes', async () => {
    await started();
    const before = statusWorkedOut.mock.calls.length;
    act(() => useAppStore.setState({ tasksTotal: 5_000 }));
    expect(rows()[0]!.getAttribute('aria-setsize')).toBe('5000');
    expect(statusWorkedOut.mock.calls.length - before).toBe(0);
  });

  it('not when the tab stop moves to another row', async () => {
    await started();
    const [first, second] = rows();
    first!.focus();
    const before = statusWorkedOut.mock.calls.length;
    act(() => second!.focus());
    expect(second!.tabIndex).toBe(0);
    expect(first!.tabIndex).toBe(-1);
    expect(statusWorkedOut.mock.calls.length - before).toBe(0);
  });

  it('not when the gallery’s page brings the same tasks again, and yes when one changed', async () => {
    await started();
    const listed = state().records;
    const before = statusWorkedOut.mock.calls.length;
    await act(() => state().galleryLoad());
    expect(state().galleryStatus).toBe('ready');
    expect(state().records.get('seed-000000')).toBe(listed.get('seed-000000'));
    expect(statusWorkedOut.mock.calls.length - before).toBe(0);
    // A record changed at the same time stamp is still taken.
    const item = state().records.get('seed-000000')!;
    act(() => state().recordsPut([{ ...item, record: { ...item.record, favourite: true } }]));
    expect(state().records.get('seed-000000')?.record.favourite).toBe(true);
    expect(statusWorkedOut.mock.calls.length - before).toBe(1);
  });
});
