import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectTaskItems } from '../../../../renderer/store/record-selectors';
import { makeImage, makeTask } from '../../../support/task-records';
import { startWiredApi, type WiredApi } from '../../../support/wired-api';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

const scroller = () => document.querySelector<HTMLElement>('.task-list')!;
const rows = () => screen.getAllByRole('article');
/** A row's height: 5.5rem at the 16 px root size. */
const ROW = 88;

/**
 * A long history in main's real database, written once for the tests that only read it (20,000
 * records take seconds to write; the window and the paging are the same at 100,000).
 */
const BIG = 10_000;
const bigMain = (() => {
  let main: Promise<WiredApi> | undefined;
  afterAll(async () => {
    await (await main)?.close();
  });
  return async () => {
    main ??= startWiredApi().then((wired) => {
      seedHistory(wired, BIG);
      return wired;
    });
    const wired = await main;
    wired.calls.length = 0;
    return wired;
  };
})();

describe('task list', () => {
  afterEach(() => vi.restoreAllMocks());

  it('keeps only a window of rows in the DOM with 10,000 tasks', async () => {
    const { main } = await startWiredApp({ main: bigMain });
    // A screenful first; the count follows in its own request.
    expect(main.callsTo('tasks:list')[0]).toMatchObject({ limit: 30, cursor: null });
    await waitFor(() => expect(screen.getByText('10,000 tasks')).toBeTruthy());
    const feed = screen.getByRole('feed', { name: 'Task history' });
    expect(within(feed).getAllByRole('article').length).toBeLessThan(30);
    expect(rows()[0]!.getAttribute('aria-setsize')).toBe('10000');
    // The feed is as tall as all rows, so the scrollbar reflects the whole history.
    expect(Number.parseFloat(feed.style.height)).toBe(BIG * ROW);
    expect(selectTaskItems(useAppStore.getState()).length).toBeLessThanOrEqual(130);
  });

  it('draws only the rows on screen in its first frame; the overscan and the next page follow it', async () => {
    const frames: FrameRequestCallback[] = [];
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => {
      frames.push(callback);
      return frames.length;
    });
    const { main } = await startWiredApp({ prepare: (wired) => void seedHistory(wired, 100) });
    // 600 px of list, 88 px rows: 7 rows on screen, none below them yet.
    expect(rows().map((row) => row.getAttribute('aria-posinset'))).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
    ]);
    // Nor is the next page asked for before that frame.
    expect(main.callsTo('tasks:list')).toHaveLength(1);
    act(() => {
      for (const frame of frames.splice(0)) frame(performance.now());
    });
    // The frame painted: 6 more rows below the screen, ready for scrolling, and the next page.
    await waitFor(() => expect(rows()).toHaveLength(13));
    await waitFor(() => expect(main.callsTo('tasks:list')).toHaveLength(2));
  });

  it('loads pages with the cursor as the user scrolls', async () => {
    const { main } = await startWiredApp({ main: bigMain });
    // The first page is a screenful; the next one is asked for at once, ahead of scrolling.
    await waitFor(() => expect(main.callsTo('tasks:list')).toHaveLength(2));
    // Main's own cursor after the first screenful (opaque to the page), then after the first 130.
    const after = (limit: number) => main.runtime.core.history.list({ limit }).nextCursor;
    expect(main.callsTo('tasks:list')[1]).toMatchObject({ cursor: after(30) });
    scroller().scrollTop = ROW * 400;
    fireEvent.scroll(scroller());
    await waitFor(() => expect(screen.getByText('Prompt number 400')).toBeTruthy());
    const pages = main.callsTo('tasks:list').slice(2);
    expect(pages.length).toBeGreaterThan(0);
    expect(pages[0]!.cursor).toBe(after(130));
    expect(selectTaskItems(useAppStore.getState()).length).toBeLessThan(1_000);
    // Still only a window of rows.
    expect(rows().length).toBeLessThan(30);
    expect(rows().some((row) => row.getAttribute('aria-posinset') === '401')).toBe(true);
  });

  // Fault: the next page held back by the contract's interceptor (to see the rows waiting for it).
  it('shows rows not loaded yet as same-size placeholders', async () => {
    const { main } = await startWiredApp({ main: bigMain });
    const held = main.intercept.request['tasks:list'].hold();
    scroller().scrollTop = ROW * 600;
    fireEvent.scroll(scroller());
    await waitFor(() =>
      expect(document.querySelectorAll('.task-row--placeholder').length).toBeGreaterThan(0),
    );
    const placeholder = document.querySelector<HTMLElement>('.task-row--placeholder')!;
    expect(placeholder.getAttribute('aria-busy')).toBe('true');
    expect(placeholder.style.height).toBe(`${ROW}px`);
    held.release();
  });

  it('moves between rows with the arrow keys, Home and End; Enter opens the details', async () => {
    const { user } = await startWiredApp({ prepare: (main) => void seedHistory(main, 50) });
    const first = rows()[0]!;
    expect(first.tabIndex).toBe(0);
    expect(rows()[1]!.tabIndex).toBe(-1);
    first.focus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(document.activeElement?.getAttribute('aria-posinset')).toBe('3');
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement?.getAttribute('aria-posinset')).toBe('2');
    await user.keyboard('{End}');
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-posinset')).toBe('50'));
    await user.keyboard('{Home}');
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-posinset')).toBe('1'));
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Task details' });
    expect(within(dialog).getByText('Prompt number 0')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    // Focus goes back to the row it came from.
    expect(document.activeElement?.getAttribute('aria-posinset')).toBe('1');
  });

  it('says what to do when there are no tasks, and when filters match none', async () => {
    const { user } = await startWiredApp();
    expect(screen.getByRole('heading', { name: 'No tasks yet' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Write a prompt' }));
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Prompt' }));
    await user.click(screen.getByRole('button', { name: 'Failed' }));
    expect(await screen.findByRole('heading', { name: 'No tasks match' })).toBeTruthy();
    // The empty state offers the way out (the toolbar has the same button).
    await user.click(screen.getAllByRole('button', { name: 'Clear filters' }).at(-1)!);
    expect(await screen.findByRole('heading', { name: 'No tasks yet' })).toBeTruthy();
  });

  // Fault: tasks:list fails once at start (a history that cannot be opened), through the
  // contract's interceptor.
  it('shows a history that cannot be read as a sentence with "Try again"', async () => {
    const { user, main } = await startWiredApp({
      main: fileMain,
      prepare: (m) =>
        m.intercept.request['tasks:list'].fail(
          {
            code: 'failed',
            message: 'The history could not be opened.',
            detail: 'database is locked',
          },
          1,
        ),
    });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The history could not be opened.');
    seedHistory(main, 2);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
  });
});

describe('task list paging failures', () => {
  // Fault: one page of tasks:list fails (the history busy), through the contract's interceptor.
  it('a page that cannot be read is said once, and loads again only when asked', async () => {
    const { user, main } = await startWiredApp({ main: bigMain });
    const list = main.intercept.request['tasks:list'];
    list.fail(
      { code: 'failed', message: 'The history could not be read.', detail: 'SQLITE_BUSY' },
      1,
    );
    scroller().scrollTop = ROW * 300;
    fireEvent.scroll(scroller());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The history could not be read.');
    // No retry loop: scrolling again asks nothing while the error stands.
    const asked = list.inputs.length;
    scroller().scrollTop = ROW * 310;
    fireEvent.scroll(scroller());
    // Two frames drawn after the scroll (the list measures in one, asks in its effects): no wait
    // on the clock, whatever the load.
    await act(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    expect(list.inputs).toHaveLength(asked);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByText('Prompt number 310')).toBeTruthy());
  });
});

/** Main's own history (tests/support/wired-api.ts), one runtime for the tests below. */
const fileMain = sharedWiredMain();

const historyFeed = (): HTMLElement => screen.getByRole('feed', { name: 'Task history' });

/**
 * Tasks an import (or a gallery move) added appear in Tasks at once, without a restart: the
 * page hears `gallery:changed` and reloads the history as well as the gallery.
 */
describe('tasks added behind the page’s back', () => {
  it.each(['imported', 'moved'])('show in Tasks after gallery:changed (%s)', async (reason) => {
    const { main } = await startWiredApp({
      main: fileMain,
      prepare: (m) => void seedHistory(m, 2),
    });
    expect(within(historyFeed()).getAllByRole('article')).toHaveLength(2);
    // Older than everything shown: an archive keeps its tasks' dates.
    main.runtime.core.history.putMany([
      makeTask({
        localId: 'imported-1',
        prompt: 'A harbour from the archive',
        createdAt: Date.UTC(2020, 0, 1),
        images: [makeImage(0)],
      }),
    ]);
    act(() => main.send('gallery:changed', { reason }));
    expect(await within(historyFeed()).findByText('A harbour from the archive')).toBeTruthy();
    expect(within(historyFeed()).getAllByRole('article')).toHaveLength(3);
  });
});
