/**
 * Undo from the first second: a large delete is undoable while it runs. Ctrl+Z
 * one second into moving 300 images to the trash stops it and brings all 300 back, as one step;
 * the grid never says "No images yet" meanwhile and keeps the focus; the status area says what the
 * job did only when it is done, with the real count (never "300 moved" beside "280 of 300"); a
 * spent Undo is not offered, not even while its restore runs. Main's trash is the slow one of
 * tests/fakes/slow-trash.ts, on a manual clock.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import type { FakePictorApi } from '../../../fakes/fake-pictor-api';
import { ManualClock } from '../../../fakes/manual-clock';
import { SlowTrash } from '../../../fakes/slow-trash';
import { focusedKey, keyOf, renderGallery, seedImages, tile } from '../gallery/gallery-harness';

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

/** The gallery of `count` images over the slow trash, its images' states in the fake. */
async function slowGallery(count: number) {
  const clock = new ManualClock();
  let trash: SlowTrash | undefined;
  const rendered = await renderGallery({
    prepare: (fake) => {
      seedImages(fake, count);
      trash = new SlowTrash(fake, clock);
    },
    events: true,
  });
  return { ...rendered, clock, trash: trash! };
}

const savedIn = async (fake: FakePictorApi): Promise<number> =>
  (await fake.own('gallery:count')({})) as number;

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
  // Fault: main's delete held at one second in (the slow trash on a manual clock), to Undo it midway.
  it('Ctrl+Z one second into a 300-image delete brings all 300 back, as one step, with no empty state meanwhile', async () => {
    const { user, fake, clock, trash } = await slowGallery(300);
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
      await waitFor(() => expect(trash.running).toBe(1));
      await act(() => clock.advance(1_000));
      // Under way, with its Undo from the start.
      expect(said()).toContain('Moving 300 images to the trash…');
      expect(said()).not.toContain('moved to the trash.');
      expect(undoButton()).not.toBeNull();
      const moved = 300 - (await savedIn(fake));
      expect(moved).toBeGreaterThan(0);
      expect(moved).toBeLessThan(300);
      // The focus is in the grid (nothing stays to take it: the grid itself), where Ctrl+Z works.
      expect(grid().contains(document.activeElement)).toBe(true);

      await user.keyboard('{Control>}z{/Control}');
      expect(undoButton()).toBeNull();
      await act(() => clock.advance(10_000));
      await waitFor(() => expect(trash.running).toBe(0));
      await waitFor(() => expect(said()).toContain('300 images restored.'));
    });
    expect(await savedIn(fake)).toBe(300);
    expect(fake.callsTo('gallery:undoDelete')).toHaveLength(1);
    await waitFor(() => expect(screen.getByText('300 images')).toBeTruthy());
    await waitFor(() => expect(focusedKey()).toBe(keyOf(0)));
    expect(undoButton()).toBeNull();
    expect(empty).toBe(false);
    expect(focusOnPage).toBe(false);
  }, 90_000);

  // Fault: main's last progress reports held back (late), and the delete held on a manual clock.
  it('says what the delete did only when it is done, with the real count, and a spent Undo goes', async () => {
    const COUNT = 120;
    const { user, fake, clock, trash } = await slowGallery(COUNT);
    // Main's last report of how far it is may lag (it reports a few times a second).
    const emit = fake.emit.bind(fake);
    fake.emit = ((channel, payload) => {
      const late =
        channel === 'trash:progress' &&
        (payload as { done: number }).done > COUNT - 20 &&
        (payload as { operation: string }).operation === 'delete';
      if (!late) emit(channel, payload);
    }) as FakePictorApi['emit'];
    const mismatches: string[] = [];
    const look = () => {
      const text = said();
      if (text.includes('images moved to the trash.') && text.includes(` of ${String(COUNT)}`))
        mismatches.push(text);
    };
    await watching(look, async () => {
      await deleteAll(user, COUNT);
      await waitFor(() => expect(trash.running).toBe(1));
      await act(() => clock.advance(10_000));
      await waitFor(() => expect(said()).toContain(`${String(COUNT)} images moved to the trash.`));
    });
    expect(mismatches).toEqual([]);
    expect(undoButton()).not.toBeNull();
    expect(await savedIn(fake)).toBe(0);

    // Ctrl+Z spends the Undo: the entry offers it no more, not while the restore runs either.
    // (Nothing is left to show: the page has the focus, and Ctrl+Z works there too.)
    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() => expect(trash.running).toBe(1));
    expect(undoButton()).toBeNull();
    expect(said()).toContain(`Putting ${String(COUNT)} images back…`);
    await user.keyboard('{Control>}z{/Control}');
    await act(() => clock.advance(10_000));
    await waitFor(() => expect(said()).toContain(`${String(COUNT)} images restored.`));
    expect(undoButton()).toBeNull();
    expect(fake.callsTo('gallery:undoDelete')).toHaveLength(1);
    expect(await savedIn(fake)).toBe(COUNT);
  }, 90_000);

  // Fault: main's delete held on a manual clock, to see the focus while it runs.
  it('gives the focus to the next image as a delete starts, and to the image back after its Undo', async () => {
    const { user, clock, trash } = await slowGallery(6);
    act(() => tile(keyOf(2)).focus());
    await user.keyboard('{Delete}');
    const question = await screen.findByRole('alertdialog');
    act(() => within(question).getByRole('button', { name: 'Move to trash' }).focus());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(trash.running).toBe(1));
    await act(() => clock.advance(1_000));
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(5));
    await waitFor(() => expect(focusedKey()).toBe(keyOf(3)));

    await user.keyboard('{Control>}z{/Control}');
    await act(() => clock.advance(1_000));
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(6));
    await waitFor(() => expect(focusedKey()).toBe(keyOf(2)));
    expect(useAppStore.getState().galleryUndoable).toBeNull();
  });
});
