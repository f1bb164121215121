/**
 * A batch action on selected tasks that takes more than a moment says how far it is in the
 * status area, as starring does: submitting fifty failed tasks again, or retrying them, shows
 * its words and a progress bar until main answers, then its outcome. An export says how far
 * main's copy is, from main's own reports, until its last.
 */
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RequestOutput } from '../../../../shared/ipc/contract';
import { makeImage } from '../../../support/task-records';
import { startApp } from '../render-app';
import { seedHistory, startWiredApp } from '../render-wired-app';

type Channel = 'tasks:resend' | 'tasks:retryMany';

describe('a slow batch action on selected tasks', () => {
  // Fault: main's answer held back, to see the words and the bar while it works.
  it.each([
    ['tasks:resend', 'Submit again', 'Submitting tasks again…'],
    ['tasks:retryMany', 'Retry', 'Retrying tasks…'],
  ] as const)('%s says how far it is while main works', async (channel: Channel, button, words) => {
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const { user, fake } = await startApp({
      prepare: (f) =>
        void f.seedTasks(50, () => ({
          status: 'completed',
          images: [makeImage(0, { state: 'invalid', file: undefined, thumbnail: undefined })],
        })),
    });
    fake.handle(channel, async ({ localIds }) => {
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
    const { main } = await startWiredApp({ prepare: (m) => void seedHistory(m, 2) });
    // Main's own reports, as the wiring sends them while an export copies.
    await act(async () => main.send('export:progress', { done: 40, total: 300 }));
    const line = screen.getByRole('group', { name: 'Copying images: 40 of 300…' });
    expect(line.querySelector('progress')?.getAttribute('value')).toBe('40');
    await act(async () => main.send('export:progress', { done: 300, total: 300 }));
    expect(screen.queryByRole('group', { name: /^Copying images/ })).toBeNull();
  });
});
