/**
 * One favourite, as the user meets it in the whole app: an image starred in
 * the Gallery puts its task in the Tasks screen's Favourites, and a task starred in Tasks puts
 * its images in the Gallery's Favourites only. The stars are main's own (the app's wiring over a
 * real history and gallery, tests/support/wired-api.ts), on images made by the demo service.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { giveSize } from '../layout-sizes';
import { startWiredApp } from '../render-wired-app';

const PROMPTS = ['A lighthouse in a storm', 'A paper boat', 'A snowy owl'];

async function startWithImages() {
  return startWiredApp({ prepare: async (main) => void (await main.generate(PROMPTS)) });
}

/** The screen's button; the screen's virtualized list gets a size (jsdom has no layout). */
const nav = (name: 'Tasks' | 'Gallery') => {
  if (name === 'Tasks') giveSize('.task-list', { width: 900, height: 600 });
  else giveSize('.gallery-grid', { width: 1000, height: 600 });
  return screen.getByRole('button', { name });
};
const rows = () => screen.queryAllByRole('article');
const tiles = () => screen.queryAllByRole('gridcell').map((cell) => cell.querySelector('img')?.alt);

describe('one favourite across Tasks and Gallery', () => {
  it('an image starred in the Gallery lists its task under the Tasks screen’s Favourites', async () => {
    const { user } = await startWithImages();
    await user.click(nav('Gallery'));
    await waitFor(() => expect(tiles()).toHaveLength(3));
    const owl = within(screen.getByRole('grid', { name: 'Images' }))
      .getByAltText('A snowy owl')
      .closest<HTMLElement>('[role="gridcell"]')!;
    owl.focus();
    await user.keyboard('f');
    await waitFor(() => expect(within(owl).getByRole('img', { name: 'Pick' })).toBeTruthy());

    await user.click(nav('Tasks'));
    await user.click(screen.getByRole('button', { name: 'Picks' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.getByRole('article', { name: 'A snowy owl' })).toBeTruthy();
  });

  it('a task starred in Tasks lists its images under the Gallery’s Favourites only', async () => {
    const { user } = await startWithImages();
    await waitFor(() => expect(rows()).toHaveLength(3));
    const boat = screen.getByRole('article', { name: 'A paper boat' });
    await user.click(within(boat).getByRole('button', { name: 'Pick' }));
    await waitFor(() =>
      expect(within(boat).getByRole('button', { name: 'Pick' }).getAttribute('aria-pressed')).toBe(
        'true',
      ),
    );

    await user.click(nav('Gallery'));
    await waitFor(() => expect(tiles()).toHaveLength(3));
    await user.click(screen.getByRole('checkbox', { name: 'Picks only' }));
    await waitFor(() => expect(tiles()).toEqual(['A paper boat']));
  });
});
