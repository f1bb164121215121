/**
 * A batch reads as one job: one card, its prompt first (all of it on a click), how far it is, its
 * own Rerun and "Use this prompt"; its results as a grid that shows them all in an 800 and a
 * 1280 px window, or as many lines as fit and a "+N" that opens the rest; each result with a
 * task's own buttons (favourite, details, cancel, remove), the keyboard reaching every one.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { seriousViolations } from '../axe-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { batchGeometry, batchMetrics } from '../../../../renderer/features/tasks/batch-geometry';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectTaskItems } from '../../../../renderer/store/record-selectors';
import { DEMO_ENDPOINT } from '../../../../shared/domain/submit-target';
import { makeImage } from '../../../support/task-records';
import type { WiredApi } from '../../../support/wired-api';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

/** Main's own history and handlers (tests/support/wired-api.ts), one runtime for the file. */
const fileMain = sharedWiredMain();

const PROMPT = `A lighthouse keeper's cat watching the storm from the lantern room, ${'rain on glass, '.repeat(8)}oil painting`;

/** Ten tasks of one submit on fal, newest first; `build` changes some. */
function seedBatch(build: (i: number) => object = () => ({})) {
  return (main: WiredApi): void => {
    seedHistory(main, 10, (i) => ({
      batchId: 'seed-000000',
      prompt: PROMPT,
      request: { prompt: PROMPT, model: 'fal-ai/flux/dev', size: '1024x1024' },
      provider: 'fal',
      endpoint: 'https://queue.fal.run',
      createdAt: Date.UTC(2026, 0, 15, 12, 0, 0),
      status: 'completed',
      images: [makeImage(0)],
      ...build(i),
    }));
  };
}

const batch = (): HTMLElement => document.querySelector<HTMLElement>('.task-batch')!;
const tiles = (): HTMLElement[] => within(batch()).getAllByRole('article');

/**
 * The feed's content width in a window `w` px wide: the sidebar (3.25rem below 60rem, else 11rem),
 * the list's padding and a scrollbar.
 */
const listWidth = (w: number): number => w - (w < 960 ? 52 : 176) - 32 - 15;

describe('a batch card', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([800, 1280])(
    'shows all ten results in a %i px window, each with its buttons',
    async (w) => {
      await startWiredApp({
        main: fileMain,
        prepare: seedBatch(),
        listSize: { width: listWidth(w), height: 600 },
      });
      expect(tiles()).toHaveLength(10);
      expect(within(batch()).queryByRole('button', { name: /more results/ })).toBeNull();
      // Every result has its remove, details and favourite; the grid has room for each.
      for (const tile of tiles()) {
        expect(within(tile).getByRole('button', { name: 'Remove from history' })).toBeTruthy();
        expect(within(tile).getByRole('button', { name: 'Details' })).toBeTruthy();
        expect(within(tile).getByRole('button', { name: 'Pick' })).toBeTruthy();
      }
      const columns = Number(batch().style.getPropertyValue('--batch-columns'));
      const tile = Number.parseFloat(batch().style.getPropertyValue('--batch-tile'));
      const gap = Number.parseFloat(batch().style.getPropertyValue('--batch-gap'));
      const pad = Number.parseFloat(batch().style.getPropertyValue('--batch-pad'));
      expect(columns * tile + (columns - 1) * gap).toBeLessThanOrEqual(listWidth(w) - 2 * pad);
      expect(Math.ceil(10 / columns)).toBeLessThanOrEqual(2);
    },
  );

  it('leads with the prompt, says how far it is, and keeps its whole prompt a click away', async () => {
    const { user } = await startWiredApp({
      main: fileMain,
      // The newest first: tasks 9, 8 and 7 run, 6 failed.
      prepare: seedBatch((i) =>
        i > 6
          ? { status: 'processing', finishedAt: null, images: [] }
          : i === 6
            ? { status: 'failed', error: { kind: 'task_failed', message: 'No.' }, images: [] }
            : {},
      ),
    });
    const head = batch().querySelector<HTMLElement>('.task-batch__head')!;
    expect(head.compareDocumentPosition(batch().querySelector('.task-batch__grid')!)).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    expect(head.textContent).toContain('10 tasks · 6 of 10 done · 1 failed');
    const toggle = within(head).getByRole('button', { name: PROMPT });
    expect(toggle.getAttribute('title')).toBe(PROMPT);
    await user.click(toggle);
    expect(within(batch()).getByRole('note').textContent).toBe(PROMPT);
    await user.keyboard('{Escape}');
    expect(within(batch()).queryByRole('note')).toBeNull();
    // A running task keeps its Cancel; each task's state is its description, and, with no
    // picture, the words on its square.
    expect(within(tiles()[0]!).getByRole('button', { name: /Cancel/ })).toBeTruthy();
    expect(within(tiles()[3]!).getAllByText('Failed', { exact: true })).toHaveLength(2);
    expect(tiles()[3]!.querySelector('.task-tile__words .task-tile__label')?.textContent).toBe(
      'Failed',
    );
  });

  // A main of its own, the batch on the built-in demo service (no key needed): its ten new
  // tasks are still running when the test ends.
  it('reruns as a new batch of ten on the batch’s own service', async () => {
    const { user, main } = await startWiredApp({
      prepare: seedBatch(() => ({ provider: 'pictor', endpoint: DEMO_ENDPOINT })),
    });
    const shown = tiles().map((tile) => tile.dataset['localId']);
    const rerun = within(batch()).getByRole('button', { name: 'Rerun' });
    expect(rerun.getAttribute('title')).toBe(
      'Sends each task’s request again as a new batch of 10 tasks, on the same service.',
    );
    await user.click(rerun);
    await waitFor(() => expect(document.querySelectorAll('.task-batch')).toHaveLength(2));
    // The page names the batch's tasks; main reads their requests and service.
    expect(main.callsTo('tasks:resend')).toEqual([{ localIds: shown, as: 'batch' }]);
    expect(await screen.findByText('Sent again as a new batch of 10 tasks.')).toBeTruthy();
    const fresh = document.querySelector<HTMLElement>('.task-batch')!;
    expect(within(fresh).getAllByRole('article', { name: PROMPT })).toHaveLength(10);
    const made = selectTaskItems(useAppStore.getState())
      .slice(0, 10)
      .map((item) => item.record);
    expect(new Set(made.map((record) => record.batchId)).size).toBe(1);
    expect(made.every((record) => record.endpoint === DEMO_ENDPOINT)).toBe(true);
    // Main made them: ten new records of one batch in its history.
    const batchId = made[0]!.batchId;
    expect(
      made.every((record) => main.runtime.core.history.get(record.localId)?.batchId === batchId),
    ).toBe(true);
  });

  it('puts its prompt, service, settings and number of tasks back in the form', async () => {
    const { user } = await startWiredApp({ main: fileMain, prepare: seedBatch() });
    await user.click(within(batch()).getByRole('button', { name: 'Use this prompt' }));
    const form = screen.getByRole('form', { name: 'New task' });
    expect(within(form).getByLabelText('Prompt', { exact: true })).toHaveProperty('value', PROMPT);
    expect(within(form).getByLabelText('Number of tasks', { exact: true })).toHaveProperty(
      'value',
      '10',
    );
    expect(useAppStore.getState().composeDraft).toMatchObject({
      provider: 'fal',
      model: 'fal-ai/flux/dev',
    });
    expect(document.activeElement).toBe(within(form).getByLabelText('Prompt', { exact: true }));
  });

  it('shows what fits and "+N" in a narrow window; "+N" opens the rest, the keys reach all', async () => {
    const { user } = await startWiredApp({
      main: fileMain,
      prepare: seedBatch(),
      listSize: { width: 260, height: 600 },
    });
    expect(tiles()).toHaveLength(3);
    expect(await seriousViolations()).toEqual([]);
    const more = within(batch()).getByRole('button', {
      name: 'Show the other 7 results of this batch',
    });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    expect(more.textContent).toBe('+7');
    await user.click(more);
    expect(tiles()).toHaveLength(10);
    const fewer = within(batch()).getByRole('button', { name: 'Show fewer' });
    expect(fewer.getAttribute('aria-expanded')).toBe('true');
    await user.click(fewer);
    expect(tiles()).toHaveLength(3);
    // The arrow keys into a result behind the "+N" open the card and move there.
    tiles()[2]!.focus();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(tiles()).toHaveLength(10));
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-posinset')).toBe('4'));
  });

  it('gives each result a task’s own actions', async () => {
    const { user, main } = await startWiredApp({ main: fileMain, prepare: seedBatch() });
    const third = tiles()[2]!;
    const localId = third.dataset['localId']!;
    await user.click(within(third).getByRole('button', { name: 'Pick' }));
    // The page shows what main tells it (its answer, its event), and main tells it only after its
    // history has the change, which the history worker wrote a moment before: wait on the page,
    // then read main. The other way round, a check in that moment finds the page behind.
    await waitFor(() =>
      expect(within(third).getByRole('button', { name: 'Pick' }).getAttribute('aria-pressed')).toBe(
        'true',
      ),
    );
    expect(main.runtime.core.history.get(localId)?.favourite).toBe(true);
    await user.click(within(third).getByRole('button', { name: 'Remove from history' }));
    const confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(tiles()).toHaveLength(9));
    expect(main.runtime.core.history.get(localId)).toBeUndefined();
  });

  it('selects a result with Ctrl+click on its picture, and opens it with a plain click', async () => {
    const { user } = await startWiredApp({ main: fileMain, prepare: seedBatch() });
    const picture = within(tiles()[1]!).getByRole('img', { name: PROMPT });
    const second = tiles()[1]!.dataset['localId'];
    await user.keyboard('{Control>}');
    await user.click(picture);
    await user.keyboard('{/Control}');
    expect([...useAppStore.getState().tasksSelection.ids]).toEqual([second]);
    expect(screen.queryByRole('dialog', { name: 'Image viewer' })).toBeNull();
    await user.click(within(tiles()[4]!).getByRole('img', { name: PROMPT }));
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });

  it('grows by as much as its head was drawn taller (its words wrapped), so nothing is cut', async () => {
    // A page with layout: the head of a card draws 90 px tall (its line wrapped), the rest as jsdom.
    const rect = HTMLElement.prototype.getBoundingClientRect;
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (
      this: HTMLElement,
    ) {
      return this.matches('.task-batch__head') ? new DOMRect(0, 0, 600, 90) : rect.call(this);
    });
    await startWiredApp({
      main: fileMain,
      prepare: seedBatch(),
      listSize: { width: listWidth(800), height: 600 },
    });
    const usual = batchGeometry(10, listWidth(800), batchMetrics(16, false), false);
    const head = batchMetrics(16, false).head;
    await waitFor(() =>
      expect(Number.parseFloat(batch().style.height)).toBe(usual.height - head + 90),
    );
    const feed = screen.getByRole('feed', { name: 'Task history' });
    expect(Number.parseFloat(feed.style.height)).toBe(usual.height - head + 90);
  });
});
