/**
 * The task list's first frame when the window starts again: the list's box as last laid out in a
 * window of that size is remembered (renderer/store/feed-box-memory.ts), so the rows in
 * view are drawn with the list in one render, not added to it by a second render forced before
 * the frame. Whatever was remembered, the first frame shows the rows in view: a box remembered in
 * a window of another size is not used, and one that no longer fits the list is measured over at
 * once.
 */
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { restartWiredApp, seedHistory, startWiredApp, type WiredApp } from '../render-wired-app';

const rows = () => screen.getAllByRole('article').map((row) => row.getAttribute('aria-posinset'));
const inView = (count: number) => Array.from({ length: count }, (_, index) => String(index + 1));

/**
 * Holds every animation frame (none is painted), so what the window shows is its first frame:
 * the rows drawn after it (the overscan) never come.
 */
function holdFrames(): void {
  vi.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 1);
}

/**
 * Runs `start` and says how many rows were added to the feed after it was drawn: 0 when the rows
 * in view came with the list, in one render.
 */
async function rowsAddedLater<T>(start: () => Promise<T>): Promise<{ app: T; added: number }> {
  const records: MutationRecord[] = [];
  const observer = new MutationObserver((delivered) => records.push(...delivered));
  observer.observe(document.body, { childList: true, subtree: true });
  const app = await start();
  await screen.findAllByRole('article');
  records.push(...observer.takeRecords());
  observer.disconnect();
  const added = records
    .filter((record) => (record.target as Element).getAttribute?.('role') === 'feed')
    .flatMap((record) => [...record.addedNodes])
    .filter((node) => node.nodeName === 'ARTICLE').length;
  return { app, added };
}

const started = (): Promise<WiredApp> =>
  startWiredApp({ prepare: (wired) => void seedHistory(wired, 100) });

describe('the task list’s first frame after a restart', () => {
  afterEach(() => vi.restoreAllMocks());

  it('draws the rows in view with the list when the window has the size it had', async () => {
    holdFrames();
    // The first start knows no box: one row, then the rows in view (600 px of 88 px rows).
    const first = await rowsAddedLater(started);
    expect(rows()).toEqual(inView(7));
    expect(first.added).toBe(6);
    const again = await rowsAddedLater(() => restartWiredApp(first.app));
    expect(rows()).toEqual(inView(7));
    expect(again.added).toBe(0);
  });

  it('does not use a box remembered in a window of another size', async () => {
    holdFrames();
    const { app } = await rowsAddedLater(started);
    vi.spyOn(window, 'innerWidth', 'get').mockReturnValue(window.innerWidth + 200);
    const again = await rowsAddedLater(() => restartWiredApp(app));
    expect(rows()).toEqual(inView(7));
    expect(again.added).toBe(6);
  });

  it('shows the rows in view when the list is not as tall as remembered', async () => {
    holdFrames();
    const { app } = await rowsAddedLater(started);
    await restartWiredApp(app, { listSize: { width: 900, height: 300 } });
    expect(rows()).toEqual(inView(4));
    await restartWiredApp(app, { listSize: { width: 900, height: 900 } });
    expect(rows()).toEqual(inView(11));
  });
});
