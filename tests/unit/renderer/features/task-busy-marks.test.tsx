/**
 * How busy tasks look while many of them work: one mark per task (a batch's tile shows a still
 * mark, its card one spinner for all), words that still follow the clock where they are read,
 * and spinners that stop turning out of view.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Spinner } from '../../../../renderer/components/spinner';
import { applyLocale } from '../../../../renderer/i18n';
import { clockSubscribers } from '../../../../renderer/lib/use-now';
import { useAppStore } from '../../../../renderer/store/app-store';
import { DEMO_ENDPOINT } from '../../../../shared/domain/submit-target';
import { UNTIL } from '../../../support/waits';
import type { WiredApi } from '../../../support/wired-api';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

/** The main of the test of seeded tasks (nothing runs on it). */
const fileMain = sharedWiredMain();

/**
 * Four tasks in main's history: three of one submit (a batch card) and one alone, all at work
 * (as the engine holds them between checks; no engine watches these).
 */
function seedBusy(main: WiredApi): void {
  seedHistory(main, 4, (i) => ({
    status: 'processing',
    finishedAt: null,
    submittedAt: NOW - 9_000,
    createdAt: NOW - 10_000,
    ...(i < 3 ? { batchId: 'seed-000000', prompt: 'A batch of boats' } : {}),
  }));
}

/**
 * Four tasks running on main's built-in demo until the test ends them there: three of one
 * submit and one alone (submitted first). Returns the batch's local ids.
 */
async function submitBusy(main: WiredApi): Promise<string[]> {
  const { engine, history } = main.runtime.core;
  const target = { provider: 'pictor' as const, endpoint: DEMO_ENDPOINT };
  await engine.submit({ prompt: 'A task alone' }, target);
  const batch = await engine.submit({ prompt: 'A batch of boats' }, target, 3);
  const ids = batch.map((record) => record.localId);
  await vi.waitFor(() => {
    if (ids.some((id) => history.get(id)?.taskId == null)) throw new Error('still submitting');
  }, UNTIL);
  return ids;
}

const card = (): HTMLElement => document.querySelector<HTMLElement>('.task-batch')!;
const tiles = (): HTMLElement[] => [...card().querySelectorAll<HTMLElement>('.task-tile')];
const spinners = (root: ParentNode): number => root.querySelectorAll('.spinner').length;
/** A tile's description: its state and its words, as a screen reader hears them. */
const description = (tile: HTMLElement): string =>
  document.getElementById(tile.getAttribute('aria-describedby')!)!.textContent;

describe('busy tasks', () => {
  afterEach(() => vi.useRealTimers());

  // A main of its own: its demo tasks run until the test completes them at the service.
  it('a batch turns one spinner for its busy tasks; each tile has one still mark; a task alone keeps its own', async () => {
    let batch: string[] = [];
    const { main } = await startWiredApp({
      runtime: { demo: { durationMs: 600_000 } },
      prepare: async (wired) => void (batch = await submitBusy(wired)),
    });
    expect(tiles()).toHaveLength(3);
    expect(spinners(card())).toBe(1);
    for (const tile of tiles()) {
      expect(spinners(tile)).toBe(0);
      expect(tile.querySelectorAll('.task-tile__state')).toHaveLength(1);
      // Whether a poll has said how far it is yet depends on when the page drew (the lazy parts
      // load first): the mark is the same either way.
      expect(tile.querySelector('.task-tile__state')!.getAttribute('title')).toMatch(
        /^Processing: (\d+% done · )?Running for /,
      );
      expect(description(tile)).toMatch(/^Processing (\d+% done · )?Running for /);
    }
    // The service says how far each is: the square says it, and how long it has run.
    await waitFor(
      () =>
        expect(tiles()[0]!.querySelector('.task-tile__sentence')?.textContent).toMatch(
          /^\d+% done · Running for /,
        ),
      UNTIL,
    );
    const alone = screen
      .getAllByRole('article')
      .find((article) => article.classList.contains('task-row'))!;
    expect(spinners(alone)).toBe(1);
    // The batch done at the service: no spinner left on its card, and no mark on its tiles.
    const { history } = main.runtime.core;
    for (const localId of batch) main.runtime.demo.completeTask(history.get(localId)!.taskId!);
    const saved = (localId: string): boolean => {
      const record = history.get(localId);
      return (
        record?.status === 'completed' && record.images.every((image) => image.state === 'saved')
      );
    };
    await vi.waitFor(() => expect(batch.filter(saved)).toHaveLength(3), UNTIL);
    await waitFor(() => {
      expect(spinners(card())).toBe(0);
      expect(card().querySelectorAll('.task-tile__state')).toHaveLength(0);
    }, UNTIL);
    expect(spinners(alone)).toBe(1);
  });

  it('a running tile follows the clock without a hover, on its square and in its description, as a row does', async () => {
    // Main first, on real timers: only the page's interval and dates are the test's.
    await fileMain();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(NOW);
    await startWiredApp({ main: fileMain, prepare: seedBusy });
    await act(async () => {
      vi.advanceTimersByTime(17);
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    // The task alone and each of the batch's three tiles: one window clock for them all.
    expect(clockSubscribers()).toBe(4);
    const [tile, other] = tiles() as [HTMLElement, HTMLElement];
    const sentence = (of: HTMLElement) => of.querySelector('.task-tile__sentence')?.textContent;
    expect(description(tile)).toBe('Processing Running for 10s');
    expect(sentence(tile)).toBe('Running for 10s');
    // Nothing pointed at, nothing focused: the seconds still move, seen and heard.
    await act(async () => vi.advanceTimersByTime(2_000));
    for (const each of [tile, other]) {
      expect(description(each)).toBe('Processing Running for 12s');
      expect(sentence(each)).toBe('Running for 12s');
    }
    expect(tile.querySelector('.task-tile__state')!.getAttribute('title')).toBe(
      'Processing: Running for 12s',
    );
    const row = document.querySelector<HTMLElement>('.task-row')!;
    expect(within(row).getByText('Running for 12s')).toBeTruthy();
    // Pointing at it and leaving changes nothing of that.
    fireEvent.pointerEnter(tile);
    fireEvent.pointerLeave(tile);
    await act(async () => vi.advanceTimersByTime(1_000));
    expect(sentence(tile)).toBe('Running for 13s');
    expect(clockSubscribers()).toBe(4);
  });
});

describe('a busy tile’s words', () => {
  afterEach(async () => {
    vi.useRealTimers();
    await act(() => applyLocale('en'));
  });

  it.each([
    ['en', 'Processing', 'Running for 10s', 'Running for 12s', 'Running for'],
    ['de', 'Wird verarbeitet', 'Läuft seit 10 Sek.', 'Läuft seit 12 Sek.', 'Läuft seit'],
    // Arabic's digits are the locale's own: the words and that they move are checked.
    ['ar', 'قيد المعالجة', null, null, 'قيد التشغيل منذ'],
  ])(
    'say its state, its running time and its prompt on the square, unpointed (%s)',
    async (...test) => {
      const [tag, label, before, after, lead] = test;
      await fileMain();
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
      vi.setSystemTime(NOW);
      await startWiredApp({ main: fileMain, prepare: seedBusy });
      // Once the settings' language (the system's) is shown: the window redraws in this one.
      await waitFor(() => expect(useAppStore.getState().settings).not.toBeNull());
      await act(() => applyLocale(tag));
      const tile = screen.getAllByRole('article', { name: 'A batch of boats' })[0]!;
      const words = tile.querySelector<HTMLElement>('.task-tile__words')!;
      const parts = () => [...words.children].map((part) => part.textContent);
      // Not an hourglass alone: the state, how long it has run, and the prompt.
      const [shownLabel, first] = parts();
      expect(shownLabel).toBe(label);
      if (before !== null) expect(parts()).toEqual([label, before, 'A batch of boats']);
      await act(async () => vi.advanceTimersByTime(2_000));
      const [, second, prompt] = parts();
      expect(prompt).toBe('A batch of boats');
      if (after !== null) expect(second).toBe(after);
      // In every language the running time moved on its own.
      expect(second).not.toBe(first);
      expect(second?.startsWith(lead)).toBe(true);
      expect(description(tile)).toContain(second);
    },
  );
});

describe('spinner', () => {
  it('stops turning out of view and turns again in it', () => {
    const watched = new Set<Element>();
    let notify: (entries: { target: Element; isIntersecting: boolean }[]) => void = () => {};
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(callback: typeof notify) {
          notify = callback;
        }
        observe(element: Element): void {
          watched.add(element);
        }
        unobserve(element: Element): void {
          watched.delete(element);
        }
        disconnect(): void {
          watched.clear();
        }
      },
    );
    try {
      const { unmount } = render(<Spinner label="Saving" />);
      const spinner = document.querySelector('.spinner')!;
      expect(watched.has(spinner)).toBe(true);
      act(() => notify([{ target: spinner, isIntersecting: false }]));
      expect(spinner.hasAttribute('data-offscreen')).toBe(true);
      act(() => notify([{ target: spinner, isIntersecting: true }]));
      expect(spinner.hasAttribute('data-offscreen')).toBe(false);
      unmount();
      expect(watched.size).toBe(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
