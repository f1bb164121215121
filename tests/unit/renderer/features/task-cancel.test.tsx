/**
 * "Cancel on <service>" in the window: on a task's row, a batch's tile and its details, while
 * it is asked ("Cancelling…") and after (a sentence for each outcome); "Stop watching" in its
 * place where the service cannot cancel (the action named for what it does there); Delete on a running row and the removal question (Cancel and remove,
 * Remove without cancelling, Keep), for one task and a selection; a selection's cancel as one
 * action with its progress line.
 *
 * Over the real main (render-wired-app.tsx): tasks running at a service of the user's own
 * speaking fal's dialect (which cancels), Black Forest Labs' (which cannot)
 * or the built-in demo (which cannot either), each running ten minutes; the engine's own checks
 * ten minutes apart, so each answer a row shows is one the cancel caused. A refusal or a service
 * that is still stopping is the service's own answer (the demo's fault rules on its cancel
 * route). An answer held back to see the in-between state is held in the contract's interceptor.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { DemoService } from '../../../../electron/demo-service/types';
import type { CostPrice } from '../../../../shared/domain/cost-ledger';
import type { ProviderId } from '../../../../shared/domain/providers';
import { DEMO_ENDPOINT } from '../../../../shared/domain/submit-target';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { okValue } from '../../../support/ipc';
import { makeImage } from '../../../support/task-records';
import { UNTIL } from '../../../support/waits';
import type { WiredApi } from '../../../support/wired-api';
import { useAppStore } from '../../../../renderer/store/app-store';
import { wordsOf } from '../../../../renderer/store/status-slice';
import { connectService } from '../dialect-services';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

type User = Awaited<ReturnType<typeof startWiredApp>>['user'];

/** For the tests of finished tasks only: nothing runs, no service of the user's own. */
const fileMain = sharedWiredMain();

const rows = (): HTMLElement[] => screen.getAllByRole('article');
const row = (index: number): HTMLElement => rows()[index]!;
const done = () => screen.getByRole('status', { name: 'Done' });

/** Ten minutes: a task runs longer than any test, and the engine checks no more often. */
const LONG = 600_000;

/** Where a running task runs: a service of the user's own (fal's or bfl's dialect), or the demo. */
type Where = 'fal' | 'bfl' | 'demo';

interface Running {
  /** Where each running task runs, top row first ("Prompt number 0", 1…). */
  readonly tasks: readonly Where[];
  /** The first `batch` tasks are one submit's (at fal), with one prompt. */
  readonly batch?: number;
  /** Finished tasks below them, in main's history (seedHistory: completed unless said). */
  readonly finished?: ReadonlyArray<Partial<TaskRecord>>;
  /** A price for fal.ai ($0.03 an image), so a task there carries an estimate. */
  readonly priced?: boolean;
  /**
   * The engine's poll interval (default ten minutes). Polls are spread over it, so a selection's
   * tasks polled after their cancels need a short one: the last is checked within it.
   */
  readonly pollIntervalMs?: number;
}

/** The app over a main of its own with tasks running (submitted in main, as Generate does). */
async function startRunning(setup: Running) {
  const services = new Map<ProviderId, DemoService>();
  const ids: string[] = [];
  const started = await startWiredApp({
    runtime: { demo: { durationMs: LONG }, pollIntervalMs: setup.pollIntervalMs ?? LONG },
    prepare: async (main) => {
      for (const where of new Set(setup.tasks)) {
        if (where === 'demo') continue;
        services.set(where, await connectService(main, where, { service: { durationMs: LONG } }));
      }
      if (setup.priced) {
        const price: CostPrice = {
          provider: 'fal',
          model: '',
          unit: 'USD',
          basis: 'image',
          micros: 30_000,
        };
        okValue(await main.api.invoke('costs:setPrice', price));
      }
      if (setup.finished) seedHistory(main, setup.finished.length, (i) => setup.finished![i]!);
      ids.push(...(await submitAll(main, setup, services)));
      main.calls.length = 0;
    },
  });
  const serviceOf = (where: ProviderId): DemoService => services.get(where)!;
  /** The service's own id of task `index` (its request id at fal). */
  const taskId = (index: number): string =>
    started.main.runtime.core.history.get(ids[index]!)!.taskId!;
  const record = (index: number) => started.main.runtime.core.history.get(ids[index]!);
  return { ...started, ids, fal: () => serviceOf('fal'), taskId, record };
}

/** Submits the tasks, the bottom one first, and waits until each service has answered its submit. */
async function submitAll(
  main: WiredApi,
  setup: Running,
  services: ReadonlyMap<ProviderId, DemoService>,
): Promise<string[]> {
  const { engine, history } = main.runtime.core;
  const target = (where: Where) =>
    where === 'demo'
      ? { provider: 'pictor' as const, endpoint: DEMO_ENDPOINT }
      : { provider: where, endpoint: services.get(where)!.url };
  const ids: string[] = [];
  const batch = setup.batch ?? 0;
  for (let i = setup.tasks.length - 1; i >= batch; i -= 1) {
    const [made] = await engine.submit({ prompt: `Prompt number ${i}` }, target(setup.tasks[i]!));
    ids.unshift(made!.localId);
  }
  if (batch > 0) {
    const made = await engine.submit({ prompt: 'A batch of boats' }, target('fal'), batch);
    ids.unshift(...made.map((record) => record.localId));
  }
  await vi.waitFor(() => {
    if (ids.some((id) => history.get(id)?.taskId == null)) throw new Error('still submitting');
  }, UNTIL);
  return ids;
}

async function cancelFromRow(user: User, index = 0): Promise<void> {
  await user.click(within(row(index)).getByRole('button', { name: 'Cancel on fal.ai' }));
}

/** Either action that ends a running task: a cancel on its service, or Stop watching. */
const ENDING = /^(Cancel on |Stop watching)/;

/** The cancel requests the service got. */
const cancelsAt = (service: DemoService) =>
  service.log.requests.filter((entry) => entry.route === 'cancel');

/** fal refuses every cancel (of `taskId` only, when given) with a 400, the task running on. */
function refuseCancels(service: DemoService, taskId?: string): void {
  service.addFault({
    route: 'cancel',
    effect: { type: 'status', status: 400, body: 'json' },
    ...(taskId ? { taskId } : {}),
  });
}

describe('cancel from a task row', () => {
  // Fault: the cancel held in the contract's interceptor on its way to main, to see Cancelling…
  // in between.
  it('shows Cancelling… while the service is asked, then the task cancelled and not billed', async () => {
    const { user, main, ids, record } = await startRunning({ tasks: ['fal'], priced: true });
    const held = main.intercept.request['tasks:cancel'].hold();
    await cancelFromRow(user);
    expect(within(row(0)).getByRole('status', { name: 'Cancelling…' })).toBeTruthy();
    expect(within(row(0)).getByText('Cancelling')).toBeTruthy();
    expect(within(row(0)).queryByRole('button', { name: ENDING })).toBeNull();
    await waitFor(() => expect(held.waiting).toBe(1));
    held.release();
    await within(done()).findByText('The task was cancelled on the service.');
    expect(within(row(0)).getByText('Cancelled')).toBeTruthy();
    expect(row(0).textContent).toContain('not billed');
    expect(record(0)?.cost).toEqual({ source: 'not_billed' });
    expect(main.callsTo('tasks:cancel')).toEqual([{ localId: ids[0] }]);
  });

  it('cancels a task running at fal: the service is asked once, the task ends cancelled and not billed', async () => {
    const { user, main, ids, fal, record } = await startRunning({ tasks: ['fal'], priced: true });
    expect(record(0)?.cost).toMatchObject({ source: 'estimated', micros: 30_000 });
    await cancelFromRow(user);
    await within(done()).findByText('The task was cancelled on the service.');
    expect(within(row(0)).getByText('Cancelled')).toBeTruthy();
    // fal's own words for it, and the estimate gone.
    expect(row(0).textContent).toContain('Request was cancelled');
    expect(row(0).textContent).toContain('not billed');
    expect(within(row(0)).queryByRole('button', { name: ENDING })).toBeNull();
    expect(main.callsTo('tasks:cancel')).toEqual([{ localId: ids[0] }]);
    expect(cancelsAt(fal())).toEqual([expect.objectContaining({ method: 'PUT', status: 202 })]);
    expect(record(0)).toMatchObject({
      status: 'failed',
      error: { kind: 'canceled' },
      cost: { source: 'not_billed' },
    });
  });

  it('offers no cancel on a task that is not running', async () => {
    await startWiredApp({
      main: fileMain,
      prepare: (main) =>
        void seedHistory(main, 2, (i) =>
          i === 0 ? { status: 'completed', images: [makeImage(0)] } : { status: 'failed' },
        ),
    });
    expect(rows()).toHaveLength(2);
    for (const task of rows()) {
      expect(within(task).queryByRole('button', { name: ENDING })).toBeNull();
    }
  });

  it('says the service finished first, and that its images are kept', async () => {
    const { user, fal, taskId, record } = await startRunning({ tasks: ['fal'] });
    // Done at the service; the engine has not checked since.
    fal().completeTask(taskId(0));
    await cancelFromRow(user);
    await within(done()).findByText(
      'The service finished the task before it could be cancelled; its images are kept.',
    );
    expect(cancelsAt(fal())).toEqual([expect.objectContaining({ status: 400 })]);
    await waitFor(() => expect(within(row(0)).getByText('Completed')).toBeTruthy());
    expect(record(0)?.status).toBe('completed');
  });

  it('says a refusal with the service’s reason, and the task runs on', async () => {
    const { user, fal, record } = await startRunning({ tasks: ['fal'] });
    refuseCancels(fal());
    await cancelFromRow(user);
    expect(
      await screen.findByText(/^The task was not cancelled: The service rejected .*\(400\)/),
    ).toBeTruthy();
    expect(within(row(0)).getByRole('button', { name: 'Cancel on fal.ai' })).toBeTruthy();
    expect(record(0)).toMatchObject({ status: 'processing', hold: null });
  });

  it('a service that is stopping it: the row says Cancelling until it ends', async () => {
    const { user, fal, record } = await startRunning({ tasks: ['fal'] });
    // fal takes the cancel (202) while the task runs on for now.
    fal().addFault({
      route: 'cancel',
      effect: {
        type: 'body',
        status: 202,
        contentType: 'application/json',
        body: '{"status":"CANCELLATION_REQUESTED"}',
      },
    });
    await cancelFromRow(user);
    await within(done()).findByText(
      'The service is stopping the task; Pictor keeps checking until it ends.',
    );
    expect(within(row(0)).getByText('Cancelling')).toBeTruthy();
    expect(within(row(0)).getByRole('status', { name: 'Cancelling…' })).toBeTruthy();
    expect(record(0)?.status).toBe('processing');
    expect(record(0)?.canceledByUserAt).toEqual(expect.any(Number));
  });

  it('a service without cancel offers Stop watching in its place, which keeps the id', async () => {
    const { user, main, ids, record } = await startRunning({ tasks: ['bfl'] });
    // Named for what it does there: Black Forest Labs has no cancel, so none is offered.
    expect(within(row(0)).queryByRole('button', { name: /^Cancel on / })).toBeNull();
    await user.click(within(row(0)).getByRole('button', { name: 'Stop watching' }));
    await within(done()).findByText(
      'Pictor stopped watching. The task ids are kept: Resume checks them again.',
    );
    expect(main.callsTo('tasks:stopWatching')).toEqual([{ localIds: [ids[0]] }]);
    // The service was never asked: nothing was pretended.
    expect(main.callsTo('tasks:cancel')).toEqual([]);
    expect(within(row(0)).getByText('Stopped watching')).toBeTruthy();
    expect(row(0).textContent).toContain('You stopped watching this task.');
    expect(within(row(0)).getByRole('button', { name: 'Resume' })).toBeTruthy();
    expect(record(0)).toMatchObject({ status: 'processing', hold: 'timed_out' });
    expect(record(0)?.taskId).toEqual(expect.any(String));
  });

  it('names the cancel by the task’s own service, and the demo’s as Stop watching', async () => {
    await startRunning({ tasks: ['fal', 'demo'] });
    const names = rows().map((one) =>
      within(one)
        .getAllByRole('button', { name: ENDING })
        .map((button) => button.getAttribute('aria-label') ?? button.textContent),
    );
    expect(names).toEqual([['Cancel on fal.ai'], ['Stop watching']]);
  });
});

describe('cancel from a batch tile and from the details', () => {
  it('each task of a batch has its own cancel', async () => {
    const { user, main, fal, record, ids } = await startRunning({
      tasks: ['fal', 'fal'],
      batch: 2,
      pollIntervalMs: 1_000,
    });
    const tiles = document.querySelectorAll<HTMLElement>('.task-tile');
    expect(tiles).toHaveLength(2);
    const second = tiles[1]!.dataset.localId!;
    await user.click(within(tiles[1]!).getByRole('button', { name: 'Cancel on fal.ai' }));
    await within(done()).findByText('The task was cancelled on the service.');
    expect(main.callsTo('tasks:cancel')).toEqual([{ localId: second }]);
    expect(cancelsAt(fal())).toHaveLength(1);
    const other = ids.indexOf(second) === 0 ? 1 : 0;
    expect(record(1 - other)?.error?.kind).toBe('canceled');
    expect(record(other)?.status).toBe('processing');
  });

  // Fault: the cancel held in the contract's interceptor, to see the details' Cancelling… button.
  it('the details have a Cancel on fal.ai button that says Cancelling… while asked', async () => {
    const { user, main } = await startRunning({ tasks: ['fal'] });
    await user.click(within(row(0)).getByRole('button', { name: 'Details' }));
    const details = await screen.findByRole('dialog', { name: 'Task details' });
    const held = main.intercept.request['tasks:cancel'].hold();
    await user.click(within(details).getByRole('button', { name: 'Cancel on fal.ai' }));
    const busy = within(details).getByRole('button', { name: 'Cancelling…' });
    expect(busy).toHaveProperty('disabled', true);
    await waitFor(() => expect(held.waiting).toBe(1));
    held.release();
    await within(done()).findByText('The task was cancelled on the service.');
    expect(within(details).queryByRole('button', { name: /^Cancel/ })).toBeNull();
  });
});

describe('removing a running task', () => {
  it('Delete on a running row asks "Cancel on the service?"; Cancel and remove cancels, then removes', async () => {
    const { user, main, ids, fal } = await startRunning({ tasks: ['fal'], finished: [{}] });
    act(() => row(0).focus());
    await user.keyboard('{Delete}');
    const question = await screen.findByRole('alertdialog', { name: 'Cancel on the service?' });
    expect(question.textContent).toContain('This task is still running on fal.ai.');
    expect(
      within(question)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label') ?? button.textContent),
    ).toEqual(['Close', 'Keep', 'Remove without cancelling', 'Cancel and remove']);
    await user.click(within(question).getByRole('button', { name: 'Cancel and remove' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(main.callsTo('tasks:cancel')).toEqual([{ localId: ids[0] }]);
    expect(main.callsTo('tasks:remove')).toEqual([{ localId: ids[0] }]);
    expect(main.calls.findIndex((c) => c.channel === 'tasks:cancel')).toBeLessThan(
      main.calls.findIndex((c) => c.channel === 'tasks:remove'),
    );
    expect(cancelsAt(fal())).toEqual([expect.objectContaining({ status: 202 })]);
    await waitFor(() => expect(main.runtime.core.history.get(ids[0]!)).toBeUndefined());
  });

  it('Remove without cancelling tells the service nothing; Keep keeps it', async () => {
    const { user, main, fal, ids } = await startRunning({ tasks: ['fal', 'fal'] });
    await user.click(within(row(0)).getByRole('button', { name: 'Remove from history' }));
    let question = await screen.findByRole('alertdialog', { name: 'Cancel on the service?' });
    await user.click(within(question).getByRole('button', { name: 'Keep' }));
    expect(rows()).toHaveLength(2);
    await user.click(within(row(0)).getByRole('button', { name: 'Remove from history' }));
    question = await screen.findByRole('alertdialog', { name: 'Cancel on the service?' });
    await user.click(within(question).getByRole('button', { name: 'Remove without cancelling' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(main.callsTo('tasks:cancel')).toEqual([]);
    expect(main.callsTo('tasks:remove')).toEqual([{ localId: ids[0] }]);
    expect(cancelsAt(fal())).toEqual([]);
  });

  it('a refused cancel keeps the task, with the service’s reason', async () => {
    const { user, main, fal, record } = await startRunning({ tasks: ['fal'] });
    refuseCancels(fal());
    await user.click(within(row(0)).getByRole('button', { name: 'Remove from history' }));
    const question = await screen.findByRole('alertdialog', { name: 'Cancel on the service?' });
    await user.click(within(question).getByRole('button', { name: 'Cancel and remove' }));
    expect(await screen.findByText(/^The task was not cancelled: /)).toBeTruthy();
    expect(rows()).toHaveLength(1);
    expect(main.callsTo('tasks:remove')).toEqual([]);
    expect(record(0)?.status).toBe('processing');
  });

  it('a running task whose service cannot cancel is removed with a sentence saying it runs on', async () => {
    const { user } = await startRunning({ tasks: ['bfl'] });
    act(() => row(0).focus());
    await user.keyboard('{Delete}');
    const question = await screen.findByRole('alertdialog', {
      name: 'Remove this task from the history?',
    });
    expect(question.textContent).toContain(
      'It is still running on Black Forest Labs, which has no way to cancel it',
    );
  });

  it('a selection with running tasks is asked once; refused ones stay, the rest go', async () => {
    const { user, main, fal, ids, taskId } = await startRunning({
      tasks: ['fal', 'fal'],
      finished: [{ status: 'completed' }],
      pollIntervalMs: 1_000,
    });
    // fal refuses to cancel the second task only.
    refuseCancels(fal(), taskId(1));
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    const bar = screen.getByRole('toolbar', { name: 'Selected tasks' });
    await user.click(within(bar).getByRole('button', { name: 'Remove' }));
    const question = await screen.findByRole('alertdialog', { name: 'Cancel on the service?' });
    expect(question.textContent).toContain(
      'Some of the selected tasks are still running on their services (2).',
    );
    await user.click(within(question).getByRole('button', { name: 'Cancel and remove' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(row(0).getAttribute('data-local-id')).toBe(ids[1]);
    expect(main.callsTo('tasks:cancelMany')).toEqual([{ localIds: [ids[0], ids[1]] }]);
    expect(cancelsAt(fal()).map((entry) => entry.status)).toEqual([202, 400]);
    // Said as an error, which stays after the removal's own confirmation has gone.
    const said = useAppStore
      .getState()
      .statusEntries.map((entry) => [entry.kind, wordsOf(entry.text)] as const);
    expect(said).toContainEqual([
      'error',
      expect.stringMatching(
        /^Cancelled: 1 · Not cancelled: 1 · First reason: The service rejected .*\(400\)/,
      ),
    ]);
  });
});

describe('cancel a selection', () => {
  // Fault: main's answer to the selection's cancel given by the test in its place: each task
  // cancelled by main's own one-task cancel, its progress sent, held after the second.
  it('is one action with a progress line, then a count of each outcome', async () => {
    const { user, main, ids } = await startRunning({
      tasks: ['fal', 'fal', 'bfl'],
      finished: [{ status: 'completed' }],
      pollIntervalMs: 1_000,
    });
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const { request, event } = main.intercept;
    request['tasks:cancelMany'].handle(async ({ localIds }) => {
      const outcomes = [];
      for (const [index, localId] of localIds.entries()) {
        outcomes.push(okValue(await main.api.invoke('tasks:cancel', { localId })));
        event['tasks:cancelProgress'].inject({ done: index + 1, total: localIds.length });
        if (index === 1) await answered;
      }
      return { outcomes };
    });
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    const bar = screen.getByRole('toolbar', { name: 'Selected tasks' });
    await user.click(within(bar).getByRole('button', { name: 'Cancel on services' }));
    const progress = await screen.findByRole('progressbar', {
      name: 'Cancelling tasks on their services…',
    });
    await waitFor(() => expect(progress.getAttribute('value')).toBe('2'));
    expect(screen.getByText('2 of 4')).toBeTruthy();
    // Answered ones show how they ended; the one still to be asked says Cancelling….
    await waitFor(() => expect(within(row(0)).getByText('Cancelled')).toBeTruthy());
    expect(within(row(2)).getByRole('status', { name: 'Cancelling…' })).toBeTruthy();
    release();
    await within(done()).findByText(
      'Cancelled: 2 · On a service that cannot cancel: 1 · Not running: 1',
    );
    expect(request['tasks:cancelMany'].inputs).toHaveLength(1);
    // The tasks whose service cannot cancel: Stop watching, from the same sentence.
    await user.click(within(done()).getByRole('button', { name: 'Stop watching' }));
    await waitFor(() =>
      expect(main.callsTo('tasks:stopWatching')).toEqual([{ localIds: [ids[2]] }]),
    );
  });

  it('counts each outcome at the services, and offers Stop watching for the ones that cannot cancel', async () => {
    const { user, main, fal, ids, record } = await startRunning({
      tasks: ['fal', 'fal', 'bfl'],
      finished: [{ status: 'completed' }],
      pollIntervalMs: 1_000,
    });
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    const bar = screen.getByRole('toolbar', { name: 'Selected tasks' });
    await user.click(within(bar).getByRole('button', { name: 'Cancel on services' }));
    await within(done()).findByText(
      'Cancelled: 2 · On a service that cannot cancel: 1 · Not running: 1',
    );
    expect(main.callsTo('tasks:cancelMany')).toHaveLength(1);
    expect(cancelsAt(fal())).toHaveLength(2);
    expect(within(row(0)).getByText('Cancelled')).toBeTruthy();
    expect(within(row(1)).getByText('Cancelled')).toBeTruthy();
    await user.click(within(done()).getByRole('button', { name: 'Stop watching' }));
    await waitFor(() =>
      expect(main.callsTo('tasks:stopWatching')).toEqual([{ localIds: [ids[2]] }]),
    );
    await waitFor(() => expect(record(2)?.hold).toBe('timed_out'));
  });

  it('is offered only when a selected task is running', async () => {
    const { user } = await startWiredApp({
      main: fileMain,
      prepare: (main) =>
        void seedHistory(main, 2, (i) => ({ status: i === 0 ? 'completed' : 'failed' })),
    });
    act(() => row(0).focus());
    await user.keyboard(' ');
    const bar = screen.getByRole('toolbar', { name: 'Selected tasks' });
    expect(within(bar).getByRole('button', { name: 'Cancel on services' })).toHaveProperty(
      'disabled',
      true,
    );
  });
});
