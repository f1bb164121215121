/**
 * How busy tasks look while many of them work: one mark per task (a batch's tile shows a still
 * mark, its card one spinner for all), words that still follow the clock where they are read,
 * and spinners that stop turning out of view.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Spinner } from '../../../../renderer/components/spinner';
import { clockSubscribers } from '../../../../renderer/lib/use-now';
import type { FakePictorApi } from '../../../fakes/fake-pictor-api';
import { makeImage } from '../../../support/task-records';
import { startApp } from '../render-app';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

/** Four tasks: three of one submit (a batch card) and one alone, all at work. */
function seedBusy(fake: FakePictorApi): void {
  fake.seedTasks(4, (i) => ({
    status: 'processing',
    finishedAt: null,
    submittedAt: NOW - 9_000,
    createdAt: NOW - 10_000,
    ...(i < 3 ? { batchId: 'seed-000000', prompt: 'A batch of boats' } : {}),
  }));
}

const card = (): HTMLElement => document.querySelector<HTMLElement>('.task-batch')!;
const tiles = (): HTMLElement[] => [...card().querySelectorAll<HTMLElement>('.task-tile')];
const spinners = (root: ParentNode): number => root.querySelectorAll('.spinner').length;
/** A tile's description: its state and its words, as a screen reader hears them. */
const description = (tile: HTMLElement): string =>
  document.getElementById(tile.getAttribute('aria-describedby')!)!.textContent;

describe('busy tasks', () => {
  afterEach(() => vi.useRealTimers());

  it('a batch turns one spinner for its busy tasks; each tile has one still mark; a task alone keeps its own', async () => {
    const { fake } = await startApp({ prepare: seedBusy });
    expect(tiles()).toHaveLength(3);
    expect(spinners(card())).toBe(1);
    for (const tile of tiles()) {
      expect(spinners(tile)).toBe(0);
      expect(tile.querySelectorAll('.task-tile__state')).toHaveLength(1);
      expect(tile.querySelector('.task-tile__state')!.getAttribute('title')).toMatch(
        /^Processing: Running for /,
      );
      expect(description(tile)).toMatch(/^Processing Running for /);
    }
    const alone = screen
      .getAllByRole('article')
      .find((article) => article.classList.contains('task-row'))!;
    expect(spinners(alone)).toBe(1);
    // The batch done: no spinner left on its card, and no mark on its tiles.
    act(() => {
      for (const localId of ['seed-000000', 'seed-000001', 'seed-000002']) {
        fake.updateTask(localId, { status: 'completed', images: [makeImage(0)] });
      }
    });
    expect(spinners(card())).toBe(0);
    expect(card().querySelectorAll('.task-tile__state')).toHaveLength(0);
  });

  it('a tile follows the clock only while pointed at or focused; a row always', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(NOW);
    await startApp({ prepare: seedBusy });
    await act(async () => {
      vi.advanceTimersByTime(17);
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    // Only the task alone is on the clock.
    expect(clockSubscribers()).toBe(1);
    const [tile, other] = tiles() as [HTMLElement, HTMLElement];
    expect(description(tile)).toBe('Processing Running for 10s');
    fireEvent.pointerEnter(tile);
    expect(clockSubscribers()).toBe(2);
    await act(async () => vi.advanceTimersByTime(2_000));
    expect(description(tile)).toBe('Processing Running for 12s');
    expect(tile.querySelector('.task-tile__state')!.getAttribute('title')).toBe(
      'Processing: Running for 12s',
    );
    // The other tile's words are as of its last drawing; the row's advance.
    expect(description(other)).toBe('Processing Running for 10s');
    const row = document.querySelector<HTMLElement>('.task-row')!;
    expect(within(row).getByText('Running for 12s')).toBeTruthy();
    fireEvent.pointerLeave(tile);
    expect(clockSubscribers()).toBe(1);
    // Focus brings the clock back, and the words are those of now.
    await act(async () => vi.advanceTimersByTime(3_000));
    act(() => other.focus());
    expect(description(other)).toBe('Processing Running for 15s');
    await act(async () => vi.advanceTimersByTime(1_000));
    expect(description(other)).toBe('Processing Running for 16s');
    act(() => other.blur());
    expect(clockSubscribers()).toBe(1);
  });
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
