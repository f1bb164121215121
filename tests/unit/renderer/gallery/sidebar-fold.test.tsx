/**
 * The boards sidebar's fold: its button (named by what it does, `aria-expanded`, the key in its
 * tooltip and `aria-keyshortcuts`) and Ctrl/Cmd+\ fold and open it, only while the gallery is
 * shown and no dialog holds the window; the choice is kept in localStorage and read at the next
 * start; in a narrow window (under 900 CSS pixels) it folds by itself, the key opens it there
 * over the gallery, and the remembered choice is untouched and comes back with the width. The
 * keys sheet lists the key; "Edit a file…" says its words where the header has room.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { t } from '../../../../renderer/i18n';
import { isSidebarKey } from '../../../../renderer/lib/sidebar-key';
import { useAppStore } from '../../../../renderer/store/app-store';
import { createBoardsSlice } from '../../../../renderer/store/boards-slice';
import { seedGallery, wiredGallery } from './gallery-wired';
import { seriousViolations } from './gallery-harness';

const renderWired = wiredGallery();
const STORED = 'pictor.boards';
const NARROW = '(max-width: 56.25rem)';

/** A window that is narrow (or not), and a way to cross the line while it runs. */
function windowNarrow(narrow: boolean): (next: boolean) => void {
  const listeners = new Set<() => void>();
  const media = {
    matches: narrow,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => (query === NARROW ? media : { ...media, matches: false })),
  );
  return (next) => {
    media.matches = next;
    act(() => listeners.forEach((listener) => listener()));
  };
}

afterEach(() => vi.unstubAllGlobals());

const pressKey = (init: Partial<KeyboardEventInit> = {}) =>
  fireEvent.keyDown(document.activeElement ?? document.body, {
    key: '\\',
    code: 'Backslash',
    ctrlKey: true,
    ...init,
  });
const hideButton = () => screen.getByRole('button', { name: 'Hide the boards' });
const showButton = () => screen.getByRole('button', { name: 'Show the boards' });
const stored = (): unknown => JSON.parse(localStorage.getItem(STORED) ?? 'null');

describe('the sidebar key', () => {
  it('is Ctrl or Cmd with \\, by its place or its character, without Shift or Alt', () => {
    const key = { key: '\\', code: 'Backslash', ctrlKey: true, metaKey: false };
    const plain = { shiftKey: false, altKey: false };
    expect(isSidebarKey({ ...key, ...plain })).toBe(true);
    expect(isSidebarKey({ ...key, ctrlKey: false, metaKey: true, ...plain })).toBe(true);
    // German layout: the key at \'s place types #; AltGr+ß types \ elsewhere.
    expect(isSidebarKey({ ...key, key: '#', ...plain })).toBe(true);
    expect(isSidebarKey({ ...key, code: 'Minus', ...plain })).toBe(true);
    expect(isSidebarKey({ ...key, ctrlKey: false, ...plain })).toBe(false);
    expect(isSidebarKey({ ...key, ...plain, shiftKey: true })).toBe(false);
    expect(isSidebarKey({ ...key, ...plain, altKey: true })).toBe(false);
    expect(isSidebarKey({ ...key, key: 'b', code: 'KeyB', ...plain })).toBe(false);
  });
});

describe('the boards sidebar fold', () => {
  it('folds and opens with its button and Ctrl+\\, and keeps the choice for the next start', async () => {
    const { user } = await renderWired({ prepare: (m) => seedGallery(m, 3) });
    const hide = hideButton();
    expect(hide.getAttribute('aria-expanded')).toBe('true');
    expect(hide.getAttribute('title')).toBe('Hide the boards (Ctrl+\\)');
    expect(hide.getAttribute('aria-keyshortcuts')).toBe('Control+\\');

    pressKey();
    expect(showButton().getAttribute('aria-expanded')).toBe('false');
    expect(showButton().getAttribute('title')).toBe('Show the boards (Ctrl+\\)');
    expect(screen.queryByRole('tree')).toBeNull();
    expect(stored()).toEqual({ open: false });

    // The next start reads it.
    const restarted = createBoardsSlice(vi.fn(), vi.fn() as never, {} as never);
    expect(restarted.boardsSidebarOpen).toBe(false);

    await user.click(showButton());
    expect(hideButton().getAttribute('aria-expanded')).toBe('true');
    expect(stored()).toEqual({ open: true });
    expect(createBoardsSlice(vi.fn(), vi.fn() as never, {} as never).boardsSidebarOpen).toBe(true);
    expect(await seriousViolations()).toEqual([]);
  });

  it('takes the key only while the gallery is shown and no dialog is open', async () => {
    await renderWired({ prepare: (m) => seedGallery(m, 2) });
    act(() => useAppStore.setState({ view: 'tasks' }));
    pressKey();
    expect(useAppStore.getState().boardsSidebarOpen).toBe(true);
    act(() => useAppStore.setState({ view: 'gallery' }));

    const dialog = document.createElement('div');
    dialog.setAttribute('aria-modal', 'true');
    document.body.append(dialog);
    pressKey();
    expect(useAppStore.getState().boardsSidebarOpen).toBe(true);
    dialog.remove();

    pressKey({ shiftKey: true });
    expect(useAppStore.getState().boardsSidebarOpen).toBe(true);
    pressKey({ ctrlKey: false, metaKey: true });
    expect(useAppStore.getState().boardsSidebarOpen).toBe(false);
  });

  it('folds by itself in a narrow window, where the key opens it without touching the remembered choice', async () => {
    const cross = windowNarrow(true);
    await renderWired({ prepare: (m) => seedGallery(m, 2) });
    expect(showButton().getAttribute('aria-expanded')).toBe('false');
    expect(useAppStore.getState().boardsSidebarOpen).toBe(true);

    pressKey();
    expect(hideButton().getAttribute('aria-expanded')).toBe('true');
    // Over the gallery, which keeps its width.
    const sidebar = screen.getByRole('navigation', { name: 'Library and boards' });
    expect(sidebar.className).toContain('boards-sidebar--over');
    expect(localStorage.getItem(STORED)).toBeNull();
    fireEvent.click(hideButton());
    expect(showButton()).toBeTruthy();
    expect(useAppStore.getState().boardsSidebarOpen).toBe(true);

    // Wide again: as it was left there; narrow again: folded, even after it was opened there.
    pressKey();
    cross(false);
    expect(hideButton().getAttribute('aria-expanded')).toBe('true');
    expect(sidebar.className).not.toContain('boards-sidebar--over');
    cross(true);
    expect(showButton()).toBeTruthy();
    expect(localStorage.getItem(STORED)).toBeNull();
  });

  it('is in the keys sheet, and "Edit a file…" says its words in a large window', async () => {
    await renderWired({ prepare: (m) => seedGallery(m, 1) });
    const edit = screen.getByRole('button', { name: 'Edit a file…' });
    expect(edit.textContent).toBe('Edit a file…');
    act(() => useAppStore.getState().triageShowHelp(true));
    const sheet = screen.getByRole('dialog', { name: t('triage.help.title') });
    const row = within(sheet).getByText('Show or hide the boards').closest('div');
    expect(row?.querySelector('kbd')?.textContent).toBe('Ctrl+\\');
  });
});
