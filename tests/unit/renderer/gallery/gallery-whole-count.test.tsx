/**
 * A whole-set selection ("Select all") counts the set its filters name: pressed while a new
 * search's list is still on its way (the search applies as the focus leaves the field for the
 * button), the bar must not read the OLD search's count ("All 1 image" over a set of six, and a
 * screen reader hears it); it names the count once main gives it.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { seedGallery, wiredGallery } from './gallery-wired';

const renderWired = wiredGallery();

describe('the count of a whole-set selection', () => {
  it('is never the previous filters’ count while the new ones load', async () => {
    const { main } = await renderWired({
      prepare: (m) => seedGallery(m, 6, (index) => ({ prompt: `Lantern number ${index}` })),
    });
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(6));
    const field = screen.getByRole('searchbox', { name: 'Search prompts' });
    act(() => field.focus());
    fireEvent.change(field, { target: { value: 'Lantern number 2' } });
    act(() => field.blur());
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(1));

    // The next list and its count held: the user clears the field and presses Select all at once.
    const list = main.intercept.request['gallery:list'].hold();
    const count = main.intercept.request['gallery:count'].hold();
    act(() => field.focus());
    fireEvent.change(field, { target: { value: '' } });
    const header = document.querySelector<HTMLElement>('.gallery__heading')!;
    const selectAll = within(header).getByRole('button', { name: 'Select all', hidden: true });
    act(() => selectAll.focus());
    fireEvent.click(selectAll);
    const bar = screen.getByRole('toolbar', { name: 'Selected images' });
    const counted = bar.querySelector('.gallery-selection__count')!;
    expect(counted.textContent).not.toMatch(/1 image/);
    list.release();
    count.release();
    await waitFor(() => expect(counted.textContent).toBe('All 6 images'));
  });
});
