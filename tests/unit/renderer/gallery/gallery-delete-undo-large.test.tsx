/**
 * Undo from the first second: a large delete is undoable while it runs. Ctrl+Z
 * one second into moving 300 images to the trash stops it and brings all 300 back, as one step;
 * the grid never says "No images yet" meanwhile and keeps the focus; the status area says what the
 * job did only when it is done, with the real count (never "300 moved" beside "280 of 300"); a
 * spent Undo is not offered, not even while its restore runs. Main's own trash (a wired main per
 * test) on the slow disk of tests/support/slow-disk.ts, on a manual clock.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { ManualClock } from '../../../fakes/manual-clock';
import { interceptWired, type InterceptedApi } from '../../../support/intercepted-api';
import { okValue } from '../../../support/ipc';
import { slowDisk } from '../../../support/slow-disk';
import { startWiredApi } from '../../../support/wired-api';
import { afterEachTest } from '../../../support/after-each-test';
import { focusedKey, keyOf, mountGallery, tile } from '../gallery/gallery-harness';
import { seedGallery } from './gallery-wired';

const area = (): HTMLElement => document.querySelector<HTMLElement>('.status-area')!;
const said = (): string => area().textContent ?? '';
const undoButton = (): HTMLElement | null => within(area()).queryByRole('button', { name: 'Undo' });
const grid = (): HTMLElement => screen.getByRole('grid', { name: 'Images' });

/** Records every text `watch` finds on the page (as it changes) while `during` runs. */
async function watching<T>(watch: () => void, during: () => Promise<T>): Promise<T> {
  watch();
  const observer = new MutationObserver(watch);
  observer.observe(document.body, {
    childList: true,
    subtree: true,
    characterData: true,
    attributes: true,
  });
  try {
    return await during();
  } finally {
    observer.disconnect();
  }
}

const mains: Array<{ close(): Promise<void> }> = [];
afterEachTest(async () => {
  while (mains.length > 0) await mains.pop()?.close();
});

/**
 * The gallery of `count` images (files behind each) over a main of the test's own, its trash on
 * the slow disk; `onWrite` hears each of the trash's writes as it is asked.
 */
async function slowGallery(count: number, onWrite?: (main: InterceptedApi, n: number) => void) {
  const clock = new ManualClock();
  const main = interceptWired(await startWiredApi());
  mains.push(main);
  seedGallery(main, count);
  const disk = slowDisk(main.runtime.core, clock, {
    onWrite: onWrite && ((n) => onWrite(main, n)),
  });
  (window as { pictor?: unknown }).pictor = main.api;
  return { ...(await mountGallery(true)), main, disk };
}

const savedIn = async (main: InterceptedApi): Promise<number> =>
  okValue(await main.api.invoke('gallery:count', {}));

/** Selects the whole gallery with Ctrl+A on a tile and confirms its delete by keyboard. */
async function deleteAll(
  user: Awaited<ReturnType<typeof slowGallery>>['user'],
  count: number,
): Promise<void> {
  act(() => tile(keyOf(0)).focus());
  await user.keyboard('{Control>}a{/Control}');
  const bar = screen.getByRole('toolbar', { name: 'Selected images' });
  await user.click(within(bar).getByRole('button', { name: 'Move to trash' }));
  const question = await screen.findByRole('alertdialog');
  expect(question.textContent).toContain(`Move ${String(count)} images to the trash?`);
  act(() => within(question).getByRole('button', { name: 'Move to trash' }).focus());
  await user.keyboard('{Enter}');
}

describe('Undo from the first second of a large delete', () => {
  it('Ctrl+Z one second into a 300-image delete brings all 300 back, as one step, with no empty state meanwhile', async () => {
    // Main's delete one second in (its writes on a slow disk, a manual clock), to Undo it midway.
    const { user, main, disk } = await slowGallery(300);
    let empty = false;
    let focusOnPage = false;
    let started = false;
    const look = () => {
      empty ||= document.body.textContent?.includes('No images yet') ?? false;
      focusOnPage ||= started && document.activeElement === document.body;
    };
    await watching(look, async () => {
      await deleteAll(user, 300);
      started = true;
      look();
      await waitFor(() => expect(disk.waiting).toBe(1));
      await act(() => disk.elapse(1_000));
      // Under way, with its Undo from the start.
      expect(said()).toContain('Moving 300 images to the trash…');
      expect(said()).not.toContain('moved to the trash.');
      expect(undoButton()).not.toBeNull();
      const moved = 300 - (await savedIn(main));
      expect(moved).toBeGreaterThan(0);
      expect(moved).toBeLessThan(300);
      // The focus is in the grid (nothing stays to take it: the grid itself), where Ctrl+Z works.
      expect(grid().contains(document.activeElement)).toBe(true);

      await user.keyboard('{Control>}z{/Control}');
      expect(undoButton()).toBeNull();
      await act(() => disk.elapse(10_000));
      await waitFor(() => expect(said()).toContain('300 images restored.'));
    });
    expect(disk.waiting).toBe(0);
    expect(await savedIn(main)).toBe(300);
    expect(main.callsTo('gallery:undoDelete')).toHaveLength(1);
    await waitFor(() => expect(screen.getByText('300 images')).toBeTruthy());
    await waitFor(() => expect(focusedKey()).toBe(keyOf(0)));
    expect(undoButton()).toBeNull();
    expect(empty).toBe(false);
    expect(focusOnPage).toBe(false);
  }, 90_000);

  it('says what the delete did only when it is done, with the real count, and a spent Undo goes', async () => {
    const COUNT = 120;
    // Main's last reports of how far the delete is arrive late (it reports a few times a second):
    // held from its last 20 images on, and its writes on a slow disk (a manual clock).
    let late: { release(): void } | undefined;
    const { user, main, disk } = await slowGallery(COUNT, (wired, n) => {
      if (n === COUNT - 20) late = wired.intercept.event['trash:progress'].hold();
    });
    const mismatches: string[] = [];
    const look = () => {
      const text = said();
      if (text.includes('images moved to the trash.') && text.includes(` of ${String(COUNT)}`))
        mismatches.push(text);
    };
    await watching(look, async () => {
      await deleteAll(user, COUNT);
      await waitFor(() => expect(disk.waiting).toBe(1));
      await act(() => disk.elapse(10_000));
      await waitFor(() => expect(said()).toContain(`${String(COUNT)} images moved to the trash.`));
    });
    expect(late).toBeDefined();
    expect(mismatches).toEqual([]);
    expect(undoButton()).not.toBeNull();
    expect(await savedIn(main)).toBe(0);
    // The late reports come, after the end was said; the restore's own go straight on.
    act(() => late!.release());

    // Ctrl+Z spends the Undo: the entry offers it no more, not while the restore runs either.
    // (Nothing is left to show: the page has the focus, and Ctrl+Z works there too.)
    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() => expect(disk.waiting).toBe(1));
    expect(undoButton()).toBeNull();
    expect(said()).toContain(`Putting ${String(COUNT)} images back…`);
    await user.keyboard('{Control>}z{/Control}');
    await act(() => disk.elapse(10_000));
    await waitFor(() => expect(said()).toContain(`${String(COUNT)} images restored.`));
    expect(undoButton()).toBeNull();
    expect(main.callsTo('gallery:undoDelete')).toHaveLength(1);
    expect(await savedIn(main)).toBe(COUNT);
  }, 90_000);

  it('gives the focus to the next image as a delete starts, and to the image back after its Undo', async () => {
    // Main's delete on a slow disk (a manual clock), to see the focus while it runs.
    const { user, disk } = await slowGallery(6);
    act(() => tile(keyOf(2)).focus());
    await user.keyboard('{Delete}');
    const question = await screen.findByRole('alertdialog');
    act(() => within(question).getByRole('button', { name: 'Move to trash' }).focus());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(disk.waiting).toBe(1));
    await act(() => disk.elapse(1_000));
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(5));
    await waitFor(() => expect(focusedKey()).toBe(keyOf(3)));

    await user.keyboard('{Control>}z{/Control}');
    await act(() => disk.elapse(1_000));
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(6));
    await waitFor(() => expect(focusedKey()).toBe(keyOf(2)));
    expect(useAppStore.getState().galleryUndoable).toBeNull();
  });
});
