/**
 * A batch action on selected tasks that takes more than a moment says how far it is in the
 * status area, as starring does: submitting fifty failed tasks again, or retrying them, shows
 * its words and a progress bar until main answers, then its outcome. An export says how far
 * main's copy is, from main's own reports, from its first to its last, and ends on a result line
 * that counts what could not be copied.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RequestOutput } from '../../../../shared/ipc/contract';
import { makeImage } from '../../../support/task-records';
import { giveSize } from '../layout-sizes';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

/** One main for the file: each test seeds an emptied history; main's own answers are the test's. */
const fileMain = sharedWiredMain();

const nav = (): HTMLElement => screen.getByRole('navigation', { name: 'Main' });

type Channel = 'tasks:resend' | 'tasks:retryMany';

describe('a slow batch action on selected tasks', () => {
  // Fault: main's answer given in its place (the contract's interceptor) once the test says, to
  // see the words and the bar while it works.
  it.each([
    ['tasks:resend', 'Submit again', 'Submitting tasks again…'],
    ['tasks:retryMany', 'Retry', 'Retrying tasks…'],
  ] as const)('%s says how far it is while main works', async (channel: Channel, button, words) => {
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const { user, main } = await startWiredApp({
      main: fileMain,
      prepare: (wired) =>
        void seedHistory(wired, 50, () => ({
          status: 'completed',
          images: [makeImage(0, { state: 'invalid', file: undefined, thumbnail: undefined })],
        })),
    });
    main.intercept.request[channel].handle(async ({ localIds }) => {
      await answered;
      return { items: [], skipped: localIds.length } satisfies RequestOutput<Channel>;
    });
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    const bar = screen.getByRole('toolbar', { name: 'Selected tasks' });
    await user.click(within(bar).getByRole('button', { name: button }));
    expect(await screen.findByRole('progressbar', { name: words })).toBeTruthy();
    expect(screen.getByText('0 of 50')).toBeTruthy();
    release();
    await within(screen.getByRole('status', { name: 'Done' })).findByText(/^Nothing to/);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('an export says how far main’s copy is, until its last report', async () => {
    const { main } = await startWiredApp({
      main: fileMain,
      prepare: (m) => void seedHistory(m, 2),
    });
    // Main's own reports, as the wiring sends them while an export copies.
    await act(async () => main.send('export:progress', { done: 40, total: 300 }));
    const line = screen.getByRole('group', { name: 'Copying images: 40 of 300…' });
    expect(line.querySelector('progress')?.getAttribute('value')).toBe('40');
    await act(async () => main.send('export:progress', { done: 300, total: 300 }));
    expect(screen.queryByRole('group', { name: /^Copying images/ })).toBeNull();
  });
});

describe('an export of images', () => {
  // Fault: main's answer given in its place once the test says, its reports injected, to see its
  // first progress report before any image is copied.
  it('shows main’s copy from its first report and ends on a line that counts the failures', async () => {
    let finish: ((answer: RequestOutput<'gallery:exportImages'>) => void) | undefined;
    const { user, main } = await startWiredApp({
      main: fileMain,
      prepare: (wired) =>
        void seedHistory(wired, 3, (index) => ({
          images: [makeImage(0, { file: `g/${String(index)}.png` })],
        })),
    });
    const progress = main.intercept.event['export:progress'];
    main.intercept.request['gallery:exportImages'].handle(
      () => new Promise<RequestOutput<'gallery:exportImages'>>((resolve) => (finish = resolve)),
    );
    giveSize('.gallery-grid', { width: 900, height: 600 });
    await user.click(within(nav()).getByRole('button', { name: 'Gallery' }));
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(3));
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    await user.click(screen.getByRole('button', { name: 'Export…' }));
    // Main has the folder and starts: its first report (before any image) shows at once.
    progress.inject({ done: 0, total: 3 });
    expect(await screen.findByRole('group', { name: 'Copying images: 0 of 3…' })).toBeTruthy();
    progress.inject({ done: 3, total: 3 });
    await waitFor(() =>
      expect(screen.queryByRole('group', { name: /^Copying images/ })).toBeNull(),
    );
    // The request reaches main on its own time (a loaded run answered before it had: nothing
    // then answered the page, and no line came).
    await waitFor(() => expect(finish).toBeDefined());
    act(() => finish?.({ folder: '/home/ada/Export', copied: 2, failed: 1 }));
    const done = screen.getByRole('status', { name: 'Done' });
    expect(
      await within(done).findByText(
        '2 images copied to /home/ada/Export. 1 image could not be copied.',
      ),
    ).toBeTruthy();
  });
});
