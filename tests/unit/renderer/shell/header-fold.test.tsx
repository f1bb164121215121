/**
 * In a small window (800x600, 200 % zoom: the header fold's media query matches) the headers of
 * the gallery and of Tasks fold their filters behind one "Filters" button that says how many are
 * in use, and opens them in a panel under the header; the search stays in view. Escape closes the
 * panel and gives the focus back to the button; "Clear filters" leaves the focus on the first
 * filter, in the panel; a date typed there is applied even when the panel is closed by a click
 * elsewhere. In a large window the filters stay in the header, as before.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HEADER_FOLD_QUERY } from '../../../../renderer/lib/use-header-fold';
import { useAppStore } from '../../../../renderer/store/app-store';
import { seedGallery, wiredGallery } from '../gallery/gallery-wired';

import { seedHistory, startWiredApp } from '../render-wired-app';

/** Main's own handlers and history (tests/support/wired-api.ts), one runtime for the file. */
const renderWired = wiredGallery();

/** A window where the headers fold (or not), and a way to cross the line while it runs. */
function windowFolds(folds: boolean): {
  change: (next: boolean) => void;
  changeOutsideAct: (next: boolean) => void;
} {
  const listeners = new Set<() => void>();
  const media = {
    matches: folds,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => (query === HEADER_FOLD_QUERY ? media : { ...media, matches: false })),
  );
  return {
    change(next) {
      media.matches = next;
      act(() => listeners.forEach((listener) => listener()));
    },
    changeOutsideAct(next) {
      media.matches = next;
      listeners.forEach((listener) => listener());
    },
  };
}

afterEach(() => vi.unstubAllGlobals());

const galleryHeader = (): HTMLElement => document.querySelector<HTMLElement>('.gallery__header')!;

describe('the gallery header in a small window', () => {
  it('folds every filter but the search behind "Filters", which counts those in use', async () => {
    windowFolds(true);
    const { user, main } = await renderWired({
      prepare: (m) =>
        seedGallery(m, 6, (index) => ({
          request: { prompt: `Prompt ${String(index)}`, model: index % 2 ? 'model-b' : 'model-a' },
        })),
    });
    const header = galleryHeader();
    expect(within(header).getByRole('searchbox', { name: 'Search prompts' })).toBeTruthy();
    expect(within(header).queryByRole('combobox', { name: 'Model' })).toBeNull();
    expect(within(header).queryByRole('checkbox', { name: 'Picks only' })).toBeNull();
    const filters = within(header).getByRole('button', { name: 'Filters' });
    expect(filters.getAttribute('aria-expanded')).toBe('false');

    await user.click(filters);
    expect(filters.getAttribute('aria-expanded')).toBe('true');
    const panel = within(header).getByRole('group', { name: 'Filters' });
    expect(filters.getAttribute('aria-controls')).toBe(panel.id);
    await user.click(within(panel).getByRole('checkbox', { name: 'Picks only' }));
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Model' }), 'model-b');
    await waitFor(() =>
      expect(main.callsTo('gallery:list').at(-1)).toMatchObject({
        favourite: true,
        model: 'model-b',
      }),
    );
    // Two in use, on the button and in its name; the search is not one of them (it is in view).
    const named = within(header).getByRole('button', { name: 'Filters, 2 in use' });
    expect(named.textContent).toBe('Filters2');

    // Escape closes the panel (not the screen's Escape) and the focus goes back to the button.
    act(() => within(panel).getByRole('combobox', { name: 'Model' }).focus());
    await user.keyboard('{Escape}');
    expect(within(header).queryByRole('group', { name: 'Filters' })).toBeNull();
    expect(document.activeElement).toBe(named);
    expect(named.getAttribute('aria-expanded')).toBe('false');
  });

  it('keeps the focus in the panel after "Clear filters", which then hides', async () => {
    windowFolds(true);
    const { user } = await renderWired({ prepare: (m) => seedGallery(m, 4) });
    await user.click(within(galleryHeader()).getByRole('button', { name: 'Filters' }));
    const panel = within(galleryHeader()).getByRole('group', { name: 'Filters' });
    const favourites = within(panel).getByRole('checkbox', { name: 'Picks only' });
    await user.click(favourites);
    await user.click(within(panel).getByRole('button', { name: 'Clear filters' }));
    expect(within(panel).queryByRole('button', { name: 'Clear filters' })).toBeNull();
    expect(document.activeElement).toBe(favourites);
    // Still the panel's: Escape closes it and gives the focus to its button.
    await user.keyboard('{Escape}');
    expect(within(galleryHeader()).queryByRole('group', { name: 'Filters' })).toBeNull();
    expect(document.activeElement).toBe(
      within(galleryHeader()).getByRole('button', { name: 'Filters' }),
    );
  });

  it('applies a date typed in the panel when a click elsewhere closes it', async () => {
    windowFolds(true);
    const { user, main } = await renderWired({ prepare: (m) => seedGallery(m, 4) });
    await user.click(within(galleryHeader()).getByRole('button', { name: 'Filters' }));
    await user.type(screen.getByLabelText('From'), '01/14/2026');
    fireEvent.pointerDown(screen.getByRole('grid'));
    expect(screen.queryByRole('group', { name: 'Filters' })).toBeNull();
    await waitFor(() =>
      expect(main.callsTo('gallery:list').at(-1)).toMatchObject({
        from: new Date(2026, 0, 14).getTime(),
      }),
    );
    expect(screen.getByRole('button', { name: 'Filters, 1 in use' })).toBeTruthy();
  });

  it('keeps the filters in the header in a large window, and folds them when it shrinks', async () => {
    const window = windowFolds(false);
    await renderWired({ prepare: (m) => seedGallery(m, 4) });
    const header = galleryHeader();
    expect(within(header).getByRole('combobox', { name: 'Model' })).toBeTruthy();
    expect(within(header).queryByRole('button', { name: 'Filters' })).toBeNull();
    window.change(true);
    expect(within(header).queryByRole('combobox', { name: 'Model' })).toBeNull();
    expect(within(header).getByRole('button', { name: 'Filters' })).toBeTruthy();
  });

  it('folds in the frame where the window crossed the line, before any later task runs', async () => {
    const window = windowFolds(false);
    await renderWired({ prepare: (m) => seedGallery(m, 4) });
    const header = galleryHeader();
    // As the browser does: the change event outside React's act, then only microtasks before
    // the frame is laid out and drawn. A render left for a later task would draw this frame
    // with the unfolded filters wrapped over several rows at the new size.
    const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    const before = actEnvironment.IS_REACT_ACT_ENVIRONMENT;
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
    try {
      window.changeOutsideAct(true);
      for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
      expect(within(header).queryByRole('combobox', { name: 'Model' })).toBeNull();
      expect(within(header).getByRole('button', { name: 'Filters' })).toBeTruthy();
    } finally {
      actEnvironment.IS_REACT_ACT_ENVIRONMENT = before;
    }
  });

  it('opens Display in a panel under the header too, closed by a click elsewhere', async () => {
    windowFolds(true);
    const { user } = await renderWired({ prepare: (m) => seedGallery(m, 4) });
    const display = within(galleryHeader()).getByRole('button', { name: 'Display' });
    await user.click(display);
    const panel = screen.getByRole('group', { name: 'Display' });
    expect(panel.classList.contains('header-panel__panel')).toBe(true);
    expect(within(panel).getByRole('combobox', { name: 'Sort' })).toBeTruthy();
    fireEvent.pointerDown(screen.getByRole('grid'));
    expect(screen.queryByRole('group', { name: 'Display' })).toBeNull();
  });
});

describe('the Tasks header in a small window', () => {
  it('folds the status chips, favourites and service behind "Filters", counting those on', async () => {
    windowFolds(true);
    const { user, main } = await startWiredApp({ prepare: (m) => void seedHistory(m, 6) });
    expect(screen.queryByRole('toolbar', { name: 'Filter by status' })).toBeNull();
    expect(screen.getByRole('searchbox', { name: 'Search prompts' })).toBeTruthy();
    // Its icon only (the toolbar one row at 200 % zoom), its words its name and its tooltip.
    const track = screen.getByRole('button', { name: 'Track a task id' });
    expect(track.textContent).toBe('');
    expect(track.title).toBe('Track a task id');
    await user.click(track);
    expect(screen.getByRole('dialog', { name: 'Track a task id' })).toBeTruthy();
    await user.keyboard('{Escape}');
    const filters = screen.getByRole('button', { name: 'Filters' });
    await user.click(filters);
    const chips = within(screen.getByRole('group', { name: 'Filters' })).getByRole('toolbar', {
      name: 'Filter by status',
    });
    await user.click(within(chips).getByRole('button', { name: 'Failed' }));
    await user.click(within(chips).getByRole('button', { name: 'Picks' }));
    await waitFor(() =>
      expect(useAppStore.getState().tasksFilter).toMatchObject({
        groups: ['failed'],
        favourite: true,
      }),
    );
    expect(screen.getByRole('button', { name: 'Filters, 2 in use' })).toBeTruthy();
    await waitFor(() =>
      expect(main.callsTo('tasks:list').at(-1)).toMatchObject({ favourite: true }),
    );
    // "Clear filters" is in the panel with them, and clears the count.
    await user.click(within(chips).getByRole('button', { name: 'Clear filters' }));
    expect(screen.getByRole('button', { name: 'Filters' })).toBeTruthy();
    // The button went with the filters; the focus is on the first chip, in the open panel.
    expect(document.activeElement).toBe(within(chips).getByRole('button', { name: 'In progress' }));
    await user.keyboard('{Escape}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Filters' }));
  });
});
