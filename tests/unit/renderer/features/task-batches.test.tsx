/**
 * Batches and selection: a submit's tasks shown as one row, and selecting tasks with the mouse
 * and the keyboard to act on them at once (one confirmation for a removal).
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { batchGeometry, batchMetrics } from '../../../../renderer/features/tasks/batch-geometry';
import { wordsOf } from '../../../../renderer/store/status-slice';
import { selectionSize } from '../../../../renderer/lib/selection';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectTaskItems } from '../../../../renderer/store/record-selectors';
import type { WiredApi } from '../../../support/wired-api';
import { makeImage } from '../../../support/task-records';
import { UNTIL } from '../../../support/waits';
import { DEMO_ENDPOINT } from '../../../../shared/domain/submit-target';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

/** Main's own history and handlers (tests/support/wired-api.ts), one runtime for the file. */
const fileMain = sharedWiredMain();

const articles = () => screen.getAllByRole('article');
/** How many tasks are selected, loaded or not (the whole filtered history after Ctrl+A). */
const selectedCount = () => {
  const state = useAppStore.getState();
  return selectionSize(state.tasksSelection, state.tasksTotal);
};
const bar = () => screen.getByRole('toolbar', { name: 'Selected tasks' });

/** Saved images of a task. */
const saved = (record: TaskRecord): number =>
  record.images.filter((image) => image.state === 'saved').length;
/** A completed task whose images are each saved or given up on. */
const settled = (record: TaskRecord): boolean =>
  record.status === 'completed' &&
  record.images.length > 0 &&
  record.images.every((image) => image.state !== 'pending');

/** A task made on main's built-in demo as Generate makes it, once `ended` says it is done. */
async function made(
  wired: WiredApi,
  prompt: string,
  ended: (record: TaskRecord) => boolean,
): Promise<TaskRecord> {
  const target = { provider: 'pictor' as const, endpoint: DEMO_ENDPOINT };
  const [submitted] = await wired.runtime.core.engine.submit({ prompt }, target);
  return vi.waitFor(() => {
    const record = wired.runtime.core.history.get(submitted!.localId);
    if (!record || !ended(record)) throw new Error('still running');
    return record;
  }, UNTIL);
}

/** `count` tasks, newest first; those at `batch` indices are one submit's, with one prompt. */
function seedWithBatch(count: number, batch: readonly number[], build = (_i: number) => ({})) {
  return (wired: WiredApi) => {
    const first = batch[0] ?? 0;
    seedHistory(wired, count, (i) =>
      batch.includes(i)
        ? {
            batchId: `seed-${String(first).padStart(6, '0')}`,
            prompt: 'A batch of boats',
            // One submit: the same moment; the history orders them by local id.
            createdAt: Date.UTC(2026, 0, 15, 12, 0, 0) - first * 60_000,
            ...build(i),
          }
        : build(i),
    );
  };
}

describe('batches in the history', () => {
  it('shows the tasks of one submit as one row: the prompt once, their results side by side', async () => {
    const images = { status: 'completed' as const, images: [makeImage(0)] };
    await startWiredApp({ main: fileMain, prepare: seedWithBatch(6, [1, 2, 3], () => images) });
    const groups = document.querySelectorAll<HTMLElement>('.task-batch');
    expect(groups).toHaveLength(1);
    const batch = groups[0]!;
    // Three tasks, each an article of the feed named by the prompt, with its own position.
    const tiles = within(batch).getAllByRole('article', { name: 'A batch of boats' });
    expect(tiles.map((tile) => tile.getAttribute('aria-posinset'))).toEqual(['2', '3', '4']);
    expect(within(batch).getAllByText('A batch of boats')).toHaveLength(1);
    expect(within(batch).getByText('3 tasks')).toBeTruthy();
    for (const tile of tiles) {
      expect(within(tile).getByText('Completed', { exact: true })).toBeTruthy();
      expect(within(tile).getByRole('img', { name: 'A batch of boats' })).toBeTruthy();
    }
    // Every task is still there, and the batch is an article of the feed holding its three.
    expect(batch.getAttribute('aria-label')).toBe('Batch of 3 tasks from one submit');
    expect(articles().filter((article) => article.dataset.localId)).toHaveLength(6);
    expect(articles()).toHaveLength(7);
    expect(document.querySelectorAll('.task-row')).toHaveLength(3);
  });

  it('joins a batch that a page boundary split once the next page is in', async () => {
    // The first page holds 30 tasks: the batch is tasks 28 to 31.
    await startWiredApp({ main: fileMain, prepare: seedWithBatch(40, [28, 29, 30, 31]) });
    await waitFor(() => expect(selectTaskItems(useAppStore.getState()).length).toBe(40));
    const scroller = document.querySelector<HTMLElement>('.task-list')!;
    scroller.scrollTop = 88 * 26;
    fireEvent.scroll(scroller);
    await waitFor(() => {
      const batch = document.querySelector<HTMLElement>('.task-batch');
      expect(batch && within(batch).getAllByRole('article')).toHaveLength(4);
    });
    // 40 tasks in 37 rows: 36 rows of one task and the batch's card, one line of four results.
    const feed = screen.getByRole('feed', { name: 'Task history' });
    const card = batchGeometry(4, 900, batchMetrics(16, false), false);
    expect(card.lines).toBe(1);
    expect(Number.parseFloat(feed.style.height)).toBe(36 * 88 + card.height);
  });

  // A main of its own: its three demo tasks are still running when it ends.
  it('shows a new "Generate 3" as one row at the top', async () => {
    const { user } = await startWiredApp({ prepare: (wired) => void seedHistory(wired, 2) });
    const form = screen.getByRole('form', { name: 'New task' });
    await user.type(within(form).getByLabelText('Prompt', { exact: true }), 'Three cranes');
    const count = within(form).getByLabelText('Number of tasks', { exact: true });
    await user.clear(count);
    await user.type(count, '3');
    await user.click(within(form).getByRole('button', { name: 'Generate 3' }));
    await waitFor(() => expect(document.querySelectorAll('.task-batch')).toHaveLength(1));
    const batch = document.querySelector<HTMLElement>('.task-batch')!;
    expect(within(batch).getAllByRole('article', { name: 'Three cranes' })).toHaveLength(3);
    expect(articles()[0]!.closest('.task-batch')).toBe(batch);
  });
});

describe('row height', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('uses taller rows in a wide window, and compact ones again when it narrows', async () => {
    const listeners = new Set<() => void>();
    const media = {
      matches: true,
      addEventListener: (_: string, listener: () => void) => listeners.add(listener),
      removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
    };
    vi.stubGlobal(
      'matchMedia',
      vi.fn((query: string) =>
        query === '(min-width: 100rem)' ? media : { ...media, matches: false },
      ),
    );
    await startWiredApp({ main: fileMain, prepare: (wired) => void seedHistory(wired, 100) });
    const feed = screen.getByRole('feed', { name: 'Task history' });
    await waitFor(() => expect(Number.parseFloat(feed.style.height)).toBe(100 * 112));
    media.matches = false;
    act(() => listeners.forEach((listener) => listener()));
    expect(Number.parseFloat(feed.style.height)).toBe(100 * 88);
  });
});

describe('selecting tasks', () => {
  it('click selects one, Ctrl/Cmd+click adds, Shift+click takes the range from the anchor', async () => {
    const { user } = await startWiredApp({
      main: fileMain,
      prepare: (wired) => void seedHistory(wired, 8),
    });
    await user.click(within(articles()[0]!).getByText('Prompt number 0'));
    expect(selectedCount()).toBe(1);
    expect(within(bar()).getByText('1 selected')).toBeTruthy();
    await user.keyboard('{Control>}');
    await user.click(within(articles()[2]!).getByText('Prompt number 2'));
    await user.keyboard('{/Control}');
    expect(selectedCount()).toBe(2);
    await user.keyboard('{Shift>}');
    await user.click(within(articles()[5]!).getByText('Prompt number 5'));
    await user.keyboard('{/Shift}');
    // The range runs from the last plain or Ctrl click (task 2) to task 5 and replaces the rest.
    expect([...useAppStore.getState().tasksSelection.ids]).toEqual([
      'seed-000002',
      'seed-000003',
      'seed-000004',
      'seed-000005',
    ]);
    expect(articles()[3]!.className).toContain('task-row--selected');
    expect(within(articles()[3]!).getByRole('checkbox', { name: 'Select' })).toHaveProperty(
      'checked',
      true,
    );
    // A plain click starts over.
    await user.click(within(articles()[7]!).getByText('Prompt number 7'));
    expect([...useAppStore.getState().tasksSelection.ids]).toEqual(['seed-000007']);
  });

  it('checkboxes toggle, and Shift on a checkbox adds the range', async () => {
    const { user } = await startWiredApp({
      main: fileMain,
      prepare: (wired) => void seedHistory(wired, 6),
    });
    const box = (i: number) => within(articles()[i]!).getByRole('checkbox', { name: 'Select' });
    await user.click(box(1));
    await user.click(box(4));
    expect(selectedCount()).toBe(2);
    await user.click(box(4));
    expect(selectedCount()).toBe(1);
    await user.keyboard('{Shift>}');
    await user.click(box(3));
    await user.keyboard('{/Shift}');
    // Anchor at 4 (the last checkbox clicked), range 3-4 added to task 1.
    expect(selectedCount()).toBe(3);
  });

  it('the keyboard: Space toggles, Shift+arrows extend, Ctrl/Cmd+A selects all, Escape clears', async () => {
    const { user } = await startWiredApp({
      main: fileMain,
      prepare: (wired) => void seedHistory(wired, 10),
    });
    articles()[0]!.focus();
    await user.keyboard(' ');
    expect(selectedCount()).toBe(1);
    await user.keyboard('{Shift>}{ArrowDown}{ArrowDown}{/Shift}');
    expect(selectedCount()).toBe(3);
    expect(document.activeElement?.getAttribute('aria-posinset')).toBe('3');
    await user.keyboard('{Control>}a{/Control}');
    expect(selectedCount()).toBe(10);
    await user.keyboard('{Meta>}a{/Meta}');
    expect(selectedCount()).toBe(10);
    await user.keyboard('{Escape}');
    expect(selectedCount()).toBe(0);
    expect(screen.queryByRole('toolbar', { name: 'Selected tasks' })).toBeNull();
  });

  it('keeps the selection while pages load, and drops it when the filter changes', async () => {
    const { user, main } = await startWiredApp({
      main: fileMain,
      prepare: (wired) => void seedHistory(wired, 300),
    });
    await user.click(within(articles()[1]!).getByText('Prompt number 1'));
    const scroller = document.querySelector<HTMLElement>('.task-list')!;
    scroller.scrollTop = 88 * 150;
    fireEvent.scroll(scroller);
    await waitFor(() => expect(screen.getByText('Prompt number 150')).toBeTruthy());
    expect(main.callsTo('tasks:list').length).toBeGreaterThan(2);
    expect([...useAppStore.getState().tasksSelection.ids]).toEqual(['seed-000001']);
    // Ctrl/Cmd+A takes every task of the filter, loaded or not, and says so.
    articles()[0]!.focus();
    await user.keyboard('{Control>}a{/Control}');
    expect(selectTaskItems(useAppStore.getState()).length).toBeLessThan(300);
    expect(selectedCount()).toBe(300);
    expect(within(bar()).getByText('All 300 tasks')).toBeTruthy();
    await user.type(screen.getByRole('searchbox', { name: 'Search prompts' }), 'number 7');
    await waitFor(() => expect(selectedCount()).toBe(0));
  });

  it("a batch's checkbox selects its tasks", async () => {
    const { user } = await startWiredApp({ main: fileMain, prepare: seedWithBatch(5, [0, 1, 2]) });
    const batch = document.querySelector<HTMLElement>('.task-batch')!;
    await user.click(
      within(batch).getByRole('checkbox', { name: 'Select the 3 tasks of this batch' }),
    );
    expect(selectedCount()).toBe(3);
    await user.click(
      within(batch).getByRole('checkbox', { name: 'Select the 3 tasks of this batch' }),
    );
    expect(selectedCount()).toBe(0);
  });
});

describe('acting on the selection', () => {
  it('removes every selected task after one confirmation, in one request', async () => {
    const { user, main } = await startWiredApp({
      main: fileMain,
      prepare: (wired) =>
        void seedHistory(wired, 12, () => ({ status: 'submit_failed', taskId: null })),
    });
    articles()[0]!.focus();
    await user.keyboard('{Control>}a{/Control}');
    await user.click(within(bar()).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove 12 tasks?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove 12 tasks' }));
    await waitFor(() => expect(screen.queryAllByRole('article')).toHaveLength(0));
    expect(main.callsTo('tasks:removeMany')).toHaveLength(1);
    expect(main.callsTo('tasks:removeMany')[0]!.localIds).toHaveLength(12);
    expect(main.callsTo('tasks:remove')).toHaveLength(0);
    await within(screen.getByRole('status', { name: 'Done' })).findByText('12 tasks removed.');
    expect(selectedCount()).toBe(0);
  });

  it('cancelling the confirmation removes nothing', async () => {
    const { user, main } = await startWiredApp({
      main: fileMain,
      prepare: (wired) => void seedHistory(wired, 3),
    });
    await user.click(within(articles()[0]!).getByText('Prompt number 0'));
    await user.click(within(bar()).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove 1 task?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(main.callsTo('tasks:removeMany')).toHaveLength(0);
    expect(articles()).toHaveLength(3);
  });

  // A main of its own: its demo makes two images a task, and fails or expires one on demand.
  it('favourites, retries, submits again and exports the selection, enabling what applies', async () => {
    let failed = '';
    let expired = '';
    const { user, main } = await startWiredApp({
      runtime: { demo: { durationMs: 100, imagesPerTask: 2 } },
      prepare: async (wired) => {
        await made(wired, 'Prompt number 2', (record) => saved(record) === 2);
        // The image host says the first link is dead (403): one image saved, one expired.
        wired.runtime.demo.addFault({
          route: 'image',
          effect: { type: 'status', status: 403 },
          times: 1,
        });
        expired = (await made(wired, 'Prompt number 1', (record) => settled(record))).localId;
        wired.runtime.demo.setFailureRate(1);
        failed = (await made(wired, 'Prompt number 0', (record) => record.status === 'failed'))
          .localId;
        wired.runtime.demo.setFailureRate(0);
      },
    });
    const { history } = main.runtime.core;
    expect(
      history
        .get(expired)
        ?.images.map((image) => image.state)
        .sort(),
    ).toEqual(['expired', 'saved']);
    await user.click(within(articles()[1]!).getByText('Prompt number 1'));
    expect(within(bar()).getByRole('button', { name: 'Submit again' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(within(bar()).getByRole('button', { name: 'Retry' })).toHaveProperty('disabled', false);
    await user.keyboard('{Shift>}');
    await user.click(within(articles()[0]!).getByText('Prompt number 0'));
    await user.keyboard('{/Shift}');

    await user.click(within(bar()).getByRole('button', { name: 'Pick' }));
    await waitFor(() => expect(history.get(failed)?.favourite).toBe(true));
    await waitFor(() => expect(history.get(expired)?.favourite).toBe(true));
    // The failed task has no image: its own star. The other's images are picked through triage.
    expect(main.callsTo('tasks:setFavouriteMany')).toEqual([
      { localIds: [failed], favourite: true },
    ]);
    expect(main.callsTo('triage:apply')).toEqual([
      { tasks: [expired], change: { kind: 'flag', flag: 'pick' } },
    ]);
    // Both favourites now: the same button takes the mark off.
    await user.click(await within(bar()).findByRole('button', { name: 'Unflag' }));
    await waitFor(() => expect(history.get(expired)?.favourite).toBe(false));
    await waitFor(() => expect(history.get(failed)?.favourite).toBe(false));

    // The link works again: the retry saves the image.
    await user.click(within(bar()).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(main.callsTo('tasks:retryMany')).toHaveLength(1));
    await within(screen.getByRole('status', { name: 'Done' })).findByText('Retrying 1 task.');
    await waitFor(() => expect(saved(history.get(expired)!)).toBe(2));

    await user.click(within(bar()).getByRole('button', { name: 'Submit again' }));
    await waitFor(() => expect(articles()).toHaveLength(4));
    expect(main.callsTo('tasks:resend')).toEqual([
      { localIds: [failed, expired], as: 'each', onlyFailed: true },
    ]);
    expect(history.taskIds({}, 10)).toHaveLength(4);

    const folder = join(main.dir, 'export');
    mkdirSync(folder);
    main.env['PICTOR_E2E_CHOOSE_FOLDER'] = folder;
    await user.click(within(bar()).getByRole('button', { name: 'Export…' }));
    // The page sends ids only; main asks for the folder and names it in the answer.
    expect(main.callsTo('tasks:exportMany')).toEqual([{ localIds: [failed, expired] }]);
    await waitFor(() =>
      expect(useAppStore.getState().statusEntries.map((shown) => wordsOf(shown.text))).toContain(
        `Exported 2 images to ${folder}.`,
      ),
    );
    // Each image, with its XMP sidecar beside it (the pick the selection made is kept there).
    const files = readdirSync(folder);
    expect(files.filter((name) => !name.endsWith('.xmp'))).toHaveLength(2);
    expect(files.filter((name) => name.endsWith('.xmp'))).toHaveLength(2);
  });

  // Fault: tasks:setFavouriteMany refused (the history busy), through the contract's interceptor.
  it('shows a refused batch action as an error and keeps the selection', async () => {
    const { user, main } = await startWiredApp({
      main: fileMain,
      prepare: (m) => void seedHistory(m, 2),
    });
    main.intercept.request['tasks:setFavouriteMany'].fail({
      code: 'failed',
      message: 'The history is busy.',
    });
    await user.click(within(articles()[0]!).getByText('Prompt number 0'));
    await user.click(within(bar()).getByRole('button', { name: 'Pick' }));
    expect(await screen.findByText('The history is busy.')).toBeTruthy();
    expect(selectedCount()).toBe(1);
  });
});
