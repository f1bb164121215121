import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ImageRecord, TaskRecord } from '../../../../shared/domain/task-record';
import { availableActions, describeStatus } from '../../../../renderer/features/tasks/task-status';
import { clockSubscribers } from '../../../../renderer/lib/use-now';
import { makeImage, makeTask } from '../../../support/task-records';
import { makeTaskRecord } from '../../../support/task-records';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';
import type { LiveState } from '../../../../shared/domain/live-state';
import { DEMO_ENDPOINT } from '../../../../shared/domain/submit-target';
import { UNTIL } from '../../../support/waits';
import type { WiredApi } from '../../../support/wired-api';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

/** One main for the file (its own for a test whose demo tasks run on). */
const fileMain = sharedWiredMain();

function failWith(message: string): never {
  throw new Error(message);
}

let sent = 0;
/**
 * What main's wiring sends after a poll that moved only a task's bookkeeping: its live part
 * (the next check, the queue's place), for a task of main's history.
 */
function sendLive(main: WiredApi, localId: string, live: Partial<LiveState>): void {
  const record = main.runtime.core.history.get(localId)!;
  sent += 1;
  main.send('tasks:updated', [
    {
      change: 'live',
      localId,
      updatedAt: record.updatedAt + sent,
      polls: record.polls + sent,
      lastPolledAt: NOW,
      live: { nextPollAt: null, polling: false, downloads: 0, ...live },
    },
  ]);
}
const at = (
  overrides: Partial<TaskRecord>,
  live: { nextPollAt: number | null; polling?: boolean } | null = null,
) =>
  describeStatus(
    { record: makeTask(overrides), live: live && { polling: false, downloads: 0, ...live } },
    NOW,
  );

describe('describeStatus', () => {
  it('processing: elapsed time and a countdown to the next check', () => {
    const view = at(
      { status: 'processing', createdAt: NOW - 83_000, finishedAt: null },
      { nextPollAt: NOW + 2_400 },
    );
    expect(view).toMatchObject({ label: 'Processing', tone: 'busy', ticking: true });
    expect(view.sentence).toBe('Running for 1m 23s · next check in 3 s');
    expect(
      at(
        { status: 'processing', createdAt: NOW - 5_000 },
        { nextPollAt: NOW + 1_000, polling: true },
      ).sentence,
    ).toBe('Running for 5s · checking now…');
    expect(
      at({ status: 'processing', createdAt: NOW - 5_000 }, { nextPollAt: NOW - 10 }).sentence,
    ).toBe('Running for 5s · checking now…');
  });

  it('waiting in the service’s queue: the badge says queued, the sentence the place (0 is next)', () => {
    const waiting = (queuePosition: number) =>
      describeStatus(
        {
          record: makeTask({ status: 'processing', createdAt: NOW - 5_000, finishedAt: null }),
          live: { nextPollAt: NOW + 2_400, polling: false, downloads: 0, queuePosition },
        },
        NOW,
      );
    expect(waiting(3)).toMatchObject({
      label: 'Queued',
      sentence: 'In the queue, 3 tasks ahead · Waiting for 5s · next check in 3 s',
      tone: 'busy',
      ticking: true,
    });
    expect(waiting(1).sentence).toBe(
      'In the queue, 1 task ahead · Waiting for 5s · next check in 3 s',
    );
    expect(waiting(0).sentence).toBe('Next in the queue · Waiting for 5s · next check in 3 s');
  });

  it('processing with a problem the engine is riding out: said in the row, the sentence on demand', () => {
    const offline = at(
      {
        status: 'processing',
        createdAt: NOW - 5_000,
        error: {
          kind: 'network',
          message: 'Pictor could not reach the service.',
          detail: 'ECONNREFUSED',
        },
      },
      { nextPollAt: NOW + 6_000 },
    );
    expect(offline).toMatchObject({ label: 'Processing', tone: 'warning', ticking: true });
    expect(offline.sentence).toBe(
      'Running for 5s · can’t reach the service, will retry · next check in 6 s',
    );
    expect(offline.detail).toBe('Pictor could not reach the service. ECONNREFUSED');
    const busy = at({
      status: 'processing',
      createdAt: NOW - 5_000,
      error: { kind: 'server', message: 'The service had a problem (502).', httpStatus: 502 },
    });
    expect(busy.sentence).toBe('Running for 5s · the service had a problem, will retry');
  });

  it('completed: its images and how long it took; images still saving; images that failed', () => {
    expect(
      at({
        status: 'completed',
        createdAt: NOW - 40_000,
        submittedAt: NOW - 38_000,
        finishedAt: NOW - 10_000,
        images: [makeImage(0, { savedAt: NOW - 9_000 }), makeImage(1, { savedAt: NOW - 6_000 })],
      }),
    ).toMatchObject({
      label: 'Completed',
      // From the ask to the last image saved.
      sentence: '2 images · took 34s',
      tone: 'success',
    });
    expect(at({ status: 'completed', images: [makeImage(0, { state: 'pending' })] })).toMatchObject(
      { label: 'Saving', sentence: 'Saving 1 image…' },
    );
    const someFailed = at({
      status: 'completed',
      images: [makeImage(0), makeImage(1, { state: 'expired' })],
    });
    expect(someFailed.tone).toBe('warning');
    expect(someFailed.sentence).toMatch(/^1 of 2 images could not be saved/);
  });

  it('submitting: says it waits while its service already runs as many of its key’s tasks as it allows', () => {
    const record = makeTask({
      status: 'submitting',
      taskId: null,
      provider: 'bfl',
      endpoint: 'https://api.bfl.ai',
    });
    const live = { nextPollAt: null, polling: false, downloads: 0 };
    expect(describeStatus({ record, live }, NOW).sentence).toBe(
      'Sending the request to the service…',
    );
    const waiting = describeStatus({ record, live: { ...live, runningAtLimit: 24 } }, NOW);
    expect(waiting).toMatchObject({ label: 'Sending', tone: 'busy' });
    expect(waiting.sentence).toBe('Waiting: 24 tasks already running on Black Forest Labs');
  });

  it('processing: how long similar tasks usually took, when known', () => {
    const item = {
      record: makeTask({ status: 'processing', createdAt: NOW - 5000 }),
      live: null,
    };
    expect(describeStatus(item, NOW, 40_000).sentence).toBe('Running for 5s · usually about 40s');
    expect(describeStatus(item, NOW).sentence).toBe('Running for 5s');
  });

  it('completed with every image link expired: says so in the badge too, not a count of images', () => {
    const record = makeTaskRecord({ images: [makeImage(0, { state: 'expired' })] });
    const view = describeStatus({ record, live: null }, NOW);
    expect(view).toMatchObject({ label: 'Link expired', tone: 'warning' });
    expect(view.sentence).toBe('Completed, but the image link expired before the image was saved.');
    const both = makeTaskRecord({
      images: [makeImage(0, { state: 'expired' }), makeImage(1, { state: 'expired' })],
    });
    expect(describeStatus({ record: both, live: null }, NOW).sentence).toBe(
      'Completed, but all 2 image links expired before the images were saved.',
    );
  });

  it('failed: the service’s own reason quoted after Pictor’s sentence, the detail on demand', () => {
    const view = at({
      status: 'failed',
      error: {
        kind: 'task_failed',
        message: 'The prompt was refused.',
        detail: '{"code":"policy"}',
      },
    });
    expect(view).toMatchObject({
      label: 'Failed',
      sentence: 'The service reported the task as failed:',
      quote: 'The prompt was refused.',
      detail: '{"code":"policy"}',
      tone: 'danger',
    });
    expect(at({ status: 'failed', error: null }).sentence).toMatch(/without giving a reason/);
  });

  it('submit refused, outcome unknown, not found', () => {
    expect(
      at({ status: 'submit_failed', error: { kind: 'credits', message: 'No credits left.' } }),
    ).toMatchObject({ label: 'Not submitted', sentence: 'No credits left.' });
    expect(at({ status: 'submit_unknown' })).toMatchObject({
      label: 'Outcome unknown',
      tone: 'warning',
    });
    expect(at({ status: 'submit_unknown' }).sentence).toMatch(/does not resend it by itself/);
    expect(at({ status: 'not_found' }).label).toBe('Not found');
  });

  it('holds: timed out, waiting for the account’s key, key refused', () => {
    expect(at({ status: 'processing', hold: 'timed_out' })).toMatchObject({
      label: 'Stopped watching',
      ticking: false,
    });
    expect(at({ status: 'processing', hold: 'awaiting_key' }).sentence).toMatch(
      /^Waiting for the key of the account that created it/,
    );
    expect(
      at({
        status: 'processing',
        hold: 'key_rejected',
        error: { kind: 'auth', message: 'The key was refused (401).' },
      }),
    ).toMatchObject({
      label: 'Key refused',
      sentence: 'The key was refused (401).',
    });
  });

  it('offers the action each status calls for', () => {
    expect(availableActions(makeTask({ status: 'processing', hold: 'timed_out' }))).toEqual({
      resume: true,
      retryImages: false,
      submitAgain: false,
    });
    expect(availableActions(makeTask({ status: 'processing', hold: null })).resume).toBe(false);
    // Waiting for another account's key: adding that key resumes it; Resume alone does nothing.
    expect(availableActions(makeTask({ status: 'processing', hold: 'awaiting_key' })).resume).toBe(
      false,
    );
    expect(availableActions(makeTask({ status: 'processing', hold: 'key_rejected' })).resume).toBe(
      true,
    );
    // Retry is offered where it can still save an image: an expired link, a download waiting to
    // be tried again; not an image whose bytes were refused (the same link gives the same bytes).
    const retries = (...images: ImageRecord[]) =>
      availableActions(makeTask({ status: 'completed', images })).retryImages;
    expect(retries(makeImage(0, { state: 'expired' }))).toBe(true);
    expect(retries(makeImage(0, { state: 'pending', error: 'The connection dropped.' }))).toBe(
      true,
    );
    expect(retries(makeImage(0, { state: 'invalid' }))).toBe(false);
    expect(retries(makeImage(0, { state: 'invalid' }), makeImage(1, { state: 'expired' }))).toBe(
      true,
    );
    expect(
      availableActions(makeTask({ status: 'completed', images: [makeImage(0)] })).retryImages,
    ).toBe(false);
    for (const status of ['submit_failed', 'submit_unknown', 'failed'] as const) {
      expect(availableActions(makeTask({ status })).submitAgain).toBe(true);
    }
  });
});

describe('status in the list', () => {
  afterEach(() => vi.useRealTimers());

  it('counts down to the next check with one clock for the window', async () => {
    // Main first, on real timers: only the page's interval and dates are the test's.
    const main = await fileMain();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(NOW);
    await startWiredApp({
      main: fileMain,
      prepare: (wired) =>
        void seedHistory(wired, 3, (i) => ({
          status: i < 2 ? 'processing' : 'completed',
          submittedAt: NOW - 9_000,
          finishedAt: null,
          createdAt: NOW - 10_000 - i,
        })),
    });
    await act(async () => sendLive(main, 'seed-000000', { nextPollAt: NOW + 3_000 }));
    // Let the list's first frame pass (jsdom runs animation frames on a 60 Hz interval, which
    // this test's fake setInterval holds), so the clock's is the only interval left.
    await act(async () => {
      vi.advanceTimersByTime(17);
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    const row = screen.getAllByRole('article')[0]!;
    expect(within(row).getByText('Running for 10s · next check in 3 s')).toBeTruthy();
    // Two ticking rows, one interval.
    expect(clockSubscribers()).toBe(2);
    expect(vi.getTimerCount()).toBe(1);
    await act(async () => vi.advanceTimersByTime(1_000));
    expect(within(row).getByText('Running for 11s · next check in 2 s')).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(2_000));
    expect(within(row).getByText('Running for 13s · checking now…')).toBeTruthy();
  });

  it('says a task’s place in the service’s queue while it waits there, and no more once it runs', async () => {
    const { main } = await startWiredApp({
      main: fileMain,
      prepare: (wired) =>
        void seedHistory(wired, 1, () => ({ status: 'processing', finishedAt: null })),
    });
    const row = (): HTMLElement => screen.getAllByRole('article')[0]!;
    const said = (live: Partial<LiveState>) =>
      act(async () => sendLive(main, 'seed-000000', { nextPollAt: null, ...live }));
    await said({ queuePosition: 2 });
    expect(within(row()).getByText(/^In the queue, 2 tasks ahead · Waiting for /)).toBeTruthy();
    expect(within(row()).getByText('Queued')).toBeTruthy();
    await said({ queuePosition: 0 });
    expect(within(row()).getByText(/^Next in the queue · Waiting for /)).toBeTruthy();
    // Running: the service no longer says a place, and the row no longer shows one.
    await said({});
    expect(within(row()).getByText(/^Running for /)).toBeTruthy();
    expect(within(row()).getByText('Processing')).toBeTruthy();
    expect(within(row()).queryByText(/queue/i)).toBeNull();
    expect(within(row()).queryByText('Queued')).toBeNull();
  });

  // A main of its own: its demo tasks run until the test ends them at the service.
  it('announces a task that completes or fails', async () => {
    const { main } = await startWiredApp({ runtime: { demo: { durationMs: 600_000 } } });
    const { demo, core } = main.runtime;
    const target = { provider: 'pictor' as const, endpoint: DEMO_ENDPOINT };
    const [second] = await core.engine.submit({ prompt: 'Prompt number 1' }, target);
    const [first] = await core.engine.submit({ prompt: 'Prompt number 0' }, target);
    const serviceId = async (localId: string) =>
      vi.waitFor(() => core.history.get(localId)?.taskId ?? failWith('not yet submitted'), UNTIL);
    const region = document.querySelector('[aria-live="polite"][role="status"].visually-hidden')!;
    demo.completeTask(await serviceId(first!.localId));
    await waitFor(() => expect(region.textContent).toBe('Task completed: Prompt number 0'), UNTIL);
    demo.failTask(await serviceId(second!.localId), {
      code: 'content_policy',
      message: 'The prompt was refused.',
    });
    await waitFor(() => expect(region.textContent).toMatch(/^Task failed: /), UNTIL);
    expect(region.textContent).toContain('The prompt was refused.');
    const failed = screen.getAllByRole('article')[1]!;
    expect(within(failed).getByText(/The prompt was refused\./)).toBeTruthy();
    expect(within(failed).getByRole('button', { name: 'Submit again' })).toBeTruthy();
    expect(core.history.get(second!.localId)?.status).toBe('failed');
  });

  it('shows every kind of row with its own action', async () => {
    // Records in main's real history, in the states the engine reaches over time.
    await startWiredApp({
      main: fileMain,
      prepare: (main) =>
        void seedHistory(
          main,
          6,
          (i) =>
            [
              { status: 'processing', hold: 'timed_out' },
              { status: 'processing', hold: 'awaiting_key' },
              { status: 'submit_failed', error: { kind: 'credits', message: 'No credits left.' } },
              { status: 'submit_unknown' },
              { status: 'completed', images: [makeImage(0), makeImage(1, { state: 'expired' })] },
              {
                status: 'completed',
                images: [makeImage(0), makeImage(1), makeImage(2), makeImage(3), makeImage(4)],
              },
            ][i] as Partial<TaskRecord>,
        ),
    });
    const rows = screen.getAllByRole('article');
    expect(within(rows[0]!).getByRole('button', { name: 'Resume' })).toBeTruthy();
    expect(
      within(rows[1]!).getByText(/Waiting for the key of the account that created it/),
    ).toBeTruthy();
    expect(within(rows[2]!).getByText('No credits left.')).toBeTruthy();
    expect(within(rows[2]!).getByRole('button', { name: 'Submit again' })).toBeTruthy();
    expect(within(rows[3]!).getByText(/no task id came back/)).toBeTruthy();
    expect(within(rows[4]!).getByRole('button', { name: 'Retry images' })).toBeTruthy();
    // Thumbnails: alt text is the prompt; at most four cells and "+N" for the rest.
    const images = within(rows[5]!).getAllByRole('img', { name: 'Prompt number 5' });
    expect(images).toHaveLength(4);
    expect(images[0]!.getAttribute('src')).toBe('pictor-gallery://gallery/task/0.thumb.webp');
    expect(within(rows[5]!).getByText('1 more image')).toBeTruthy();
  });
});
