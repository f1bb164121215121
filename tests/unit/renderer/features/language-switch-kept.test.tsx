/**
 * What a language switch keeps. app.tsx draws the whole window anew in a new language (keyed on
 * it), so a choice or unsaved work a component held itself was lost at a switch. One walk over the
 * app's real wiring makes each such choice where the user makes it — a batch card's "+N" opened;
 * the gallery's selection and a board folded in its sidebar; the compare view's focused cell, its
 * 2-up, 2-up's A/B mode and divider; the mask editor's tool, brush size and strokes (with their
 * undo step) — switches the language and finds each as it was. A second walk scrolls the task list
 * and the gallery half-way and finds both there after a switch (the gallery also when it was
 * hidden behind the Tasks screen at the switch).
 * The compare dialog's rows and the edit panel's draft have their own cases
 * (compare-plan-names.test.tsx, edit-panel.test.tsx).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyLocale, t } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage } from '../../../support/task-records';
import type { WiredApi } from '../../../support/wired-api';
import { giveSize } from '../layout-sizes';
import { seedHistory, startWiredApp } from '../render-wired-app';

const GROUP = '0f4c2a9e-1b3d-4e5f-8a7b-6c5d4e3f2a1b';

afterEach(async () => {
  vi.restoreAllMocks();
  await applyLocale('en');
});

/**
 * Three compare cells with an image file each, task-1's real 1024 × 768 PNG for the editor, a batch
 * of ten (newest) and the boards Clients/Acme and Mood.
 */
async function prepare(main: WiredApi): Promise<void> {
  seedHistory(main, 10, (n) => ({
    localId: `batch-${String(n)}`,
    batchId: 'batch-0',
    prompt: 'a batch of boats',
    createdAt: Date.UTC(2026, 0, 16),
    status: 'completed',
    images: [makeImage(0)],
  }));
  main.runtime.core.boards.create('Clients/Acme');
  main.runtime.core.boards.create('Mood');
  const folder = join(main.runtime.galleryDir(), 'k');
  mkdirSync(folder, { recursive: true });
  const bytes = await sharp({
    create: { width: 1024, height: 768, channels: 3, background: '#6688aa' },
  })
    .png({ compressionLevel: 1 })
    .toBuffer();
  writeFileSync(join(folder, 'source.png'), bytes);
  seedHistory(main, 4, (n) => ({
    localId: n === 3 ? 'task-1' : `cmp-${String(n + 1)}`,
    prompt: 'a lake at dawn',
    status: 'completed',
    images: [makeImage(0, { file: n === 3 ? 'k/source.png' : `k/${String(n)}.png` })],
    ...(n === 3 ? {} : { compare: { group: GROUP, slot: n + 1, label: `target ${String(n)}` } }),
  }));
}

const galleryTile = (key: string) =>
  document.querySelector<HTMLElement>(`.gallery-grid [data-key="${key}"]`)!;
const batchTiles = () =>
  within(document.querySelector<HTMLElement>('.task-batch')!).getAllByRole('article');
const boardsShown = () =>
  within(screen.getByRole('tree', { name: t('triage.boards.label') }))
    .getAllByRole('treeitem')
    .map((item) => [item.getAttribute('aria-level'), item.getAttribute('aria-expanded')]);
const compareView = () => document.querySelector<HTMLElement>('.compare')!;
const compareCells = () => within(compareView()).getAllByRole('gridcell', { hidden: true });
const maskEditor = () => document.querySelector<HTMLElement>('.mask-editor')!;
const pressed = (within: HTMLElement) =>
  [...within.querySelectorAll('[aria-pressed="true"]')].map((element) => element.textContent);

/** A brush stroke across the shown canvas (the source's size: one client pixel a source pixel). */
function stroke(canvas: HTMLElement): void {
  fireEvent.pointerDown(canvas, { pointerId: 1, button: 0, clientX: 100, clientY: 100 });
  fireEvent.pointerMove(canvas, { pointerId: 1, clientX: 300, clientY: 100 });
  fireEvent.pointerUp(canvas, { pointerId: 1 });
}

describe('a language switch', () => {
  it('keeps a batch card opened, the gallery’s selection and folded board, the compare view’s cell and mode, and the mask being painted', async () => {
    // jsdom draws nothing (no 2D context); the canvas is shown at the source's size.
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
    vi.spyOn(HTMLCanvasElement.prototype, 'getBoundingClientRect').mockReturnValue(
      DOMRect.fromRect({ x: 0, y: 0, width: 1024, height: 768 }),
    );
    const { user } = await startWiredApp({ prepare, listSize: { width: 260, height: 600 } });

    // The batch card in a narrow feed: three results and "+7", opened.
    expect(batchTiles()).toHaveLength(3);
    await user.click(
      screen.getByRole('button', { name: 'Show the other 7 results of this batch' }),
    );
    expect(batchTiles()).toHaveLength(10);

    // The gallery: two of its images selected with Ctrl+click, the board Clients folded.
    giveSize('.gallery-grid', { width: 900, height: 600 });
    await user.click(screen.getByRole('button', { name: 'Gallery' }));
    await waitFor(() => expect(galleryTile('cmp-3/0')).toBeTruthy());
    fireEvent.click(
      within(screen.getByRole('treeitem', { name: /^Clients/ })).getByText(
        (_, element) => element?.classList.contains('sidebar-tree__twisty--fold') ?? false,
      ),
    );
    const folded = [
      ['1', 'false'],
      ['1', null],
    ];
    expect(boardsShown()).toEqual(folded);
    fireEvent.click(galleryTile('cmp-1/0'), { ctrlKey: true });
    fireEvent.click(galleryTile('cmp-3/0'), { ctrlKey: true });
    const selected = () =>
      [...document.querySelectorAll('.gallery-grid [aria-selected="true"]')].map((tile) =>
        tile.getAttribute('data-key'),
      );
    expect(selected()).toEqual(['cmp-1/0', 'cmp-3/0']);

    // The compare view: the second cell focused, 2-up (it and the third), the A/B divider at 30.
    await act(() => useAppStore.getState().compareOpen(GROUP));
    await waitFor(() => expect(compareCells()).toHaveLength(3));
    fireEvent.focus(compareCells()[1]!);
    fireEvent.click(within(compareView()).getByRole('button', { name: t('compare.twoUp') }));
    fireEvent.click(within(compareView()).getByRole('button', { name: t('compare.slider') }));
    fireEvent.change(within(compareView()).getByRole('slider'), { target: { value: '30' } });
    const twoUp = () => compareView().querySelector<HTMLElement>('.compare-two-up');
    const shownCompare = () => ({
      mode: twoUp()?.dataset['mode'],
      divider: (within(compareView()).queryByRole('slider') as HTMLInputElement | null)?.value,
      panes: within(compareView())
        .getAllByTestId('two-up-pane')
        .map((pane) => pane.querySelector('img')?.getAttribute('src')),
    });
    const before = shownCompare();
    expect(before).toMatchObject({ mode: 'ab', divider: '30' });
    expect(before.panes).toEqual([
      expect.stringContaining('k/1.png'),
      expect.stringContaining('k/2.png'),
    ]);

    await act(() => applyLocale('de'));
    // The window is drawn anew in German: the same images selected, the same cells 2-up, A/B at 30.
    expect(screen.getByRole('button', { name: 'Galerie' })).toBeTruthy();
    await waitFor(() => expect(galleryTile('cmp-3/0')).toBeTruthy());
    expect(selected()).toEqual(['cmp-1/0', 'cmp-3/0']);
    expect(boardsShown()).toEqual(folded);
    expect(shownCompare()).toEqual(before);

    // The mask editor of a fill: the eraser, a larger brush, and a stroke painted (then the brush).
    act(() => useAppStore.getState().compareClose());
    await act(() =>
      useAppStore
        .getState()
        .editOpenFromLibrary({ localId: 'task-1', index: 0 }, 'a pink sky', { operation: 'fill' }),
    );
    await waitFor(() => expect(maskEditor().querySelector('canvas')).toBeTruthy());
    const tools = () => within(maskEditor()).getByRole('toolbar');
    const button = (key: Parameters<typeof t>[0]) =>
      within(tools()).getByRole('button', { name: t(key) });
    fireEvent.click(button('maskEditor.larger'));
    stroke(maskEditor().querySelector('canvas')!);
    fireEvent.click(button('maskEditor.eraser'));
    const shownMask = () => ({
      pressed: pressed(tools()),
      size: maskEditor().querySelector('output')?.textContent?.match(/\d+/)?.[0],
      status: maskEditor().querySelector('[role="status"]')?.textContent,
      undo: (button('maskEditor.undo') as HTMLButtonElement).disabled,
    });
    expect(shownMask()).toEqual({
      pressed: [t('maskEditor.eraser')],
      size: '48',
      status: t('maskEditor.painted'),
      undo: false,
    });

    // (The feed, drawn anew with the window, measures its width there and then.)
    giveSize('.task-list', { width: 260, height: 600 });
    await act(() => applyLocale('en'));
    // Drawn anew in English: the eraser, 48 px, the stroke still painted and still undoable.
    await waitFor(() => expect(maskEditor().querySelector('canvas')).toBeTruthy());
    expect(shownMask()).toEqual({
      pressed: ['Eraser'],
      size: '48',
      status: 'The painted part of the image will be changed.',
      undo: false,
    });
    fireEvent.click(button('maskEditor.undo'));
    expect(shownMask().status).toBe(t('maskEditor.empty'));

    // The feed, drawn anew twice since: the batch card still open.
    act(() => useAppStore.getState().editClose());
    await user.click(screen.getByRole('button', { name: 'Tasks' }));
    const fewer = await screen.findByRole('button', { name: 'Show fewer' });
    expect(fewer.getAttribute('aria-expanded')).toBe('true');
    expect(batchTiles()).toHaveLength(10);
  });
});

describe('a language switch, over feeds scrolled half-way', () => {
  const ROWS = 300;
  const feedTop = (selector: string) => document.querySelector<HTMLElement>(selector)!.scrollTop;
  function scrollTo(selector: string, top: number): void {
    const element = document.querySelector<HTMLElement>(selector)!;
    element.scrollTop = top;
    fireEvent.scroll(element);
  }
  const tilesDrawn = () =>
    [...document.querySelectorAll<HTMLElement>('.gallery-grid [data-key]')].map(
      (tile) => tile.dataset['key'],
    );
  const firstTask = () =>
    document.querySelector<HTMLElement>('.task-list article[data-index]')?.dataset['index'];

  it('keeps the task list’s offset and the gallery’s, shown or hidden at the switch', async () => {
    await startWiredApp({
      prepare: (main) => {
        seedHistory(main, ROWS, (n) => ({
          localId: `many-${String(n)}`,
          prompt: `a field of poppies ${String(n)}`,
          status: 'completed',
          images: [makeImage(0, { file: `p/${String(n)}.png` })],
        }));
      },
    });
    // The task list, some way down; the rows drawn there.
    await waitFor(() => expect(firstTask()).toBe('0'));
    scrollTo('.task-list', 9_000);
    await waitFor(() => expect(Number(firstTask())).toBeGreaterThan(10));
    const tasksShown = firstTask();

    // The gallery, some way down (its tiles there drawn), then the Tasks screen shown again.
    giveSize('.task-list, .gallery-grid', { width: 900, height: 600 });
    act(() => useAppStore.getState().setView('gallery'));
    await waitFor(() => expect(galleryTile('many-0/0')).toBeTruthy());
    scrollTo('.gallery-grid', 4_000);
    await waitFor(() => expect(tilesDrawn()).not.toContain('many-10/0'));
    const galleryShown = tilesDrawn();
    act(() => useAppStore.getState().setView('tasks'));

    await act(() => applyLocale('de'));
    // Drawn anew: the list where it was, its rows those drawn there.
    await waitFor(() => expect(firstTask()).toBe(tasksShown));
    expect(feedTop('.task-list')).toBe(9_000);
    // The gallery, drawn anew hidden, goes back there when it shows, with the same tiles.
    act(() => useAppStore.getState().setView('gallery'));
    await waitFor(() => expect(feedTop('.gallery-grid')).toBe(4_000));
    await waitFor(() => expect(tilesDrawn()).toEqual(galleryShown));

    // Shown at the switch, it stays there too.
    scrollTo('.gallery-grid', 2_000);
    await act(() => applyLocale('en'));
    await waitFor(() => expect(feedTop('.gallery-grid')).toBe(2_000));
  });
});

describe('a language switch, over Settings’ fields typed and not saved', () => {
  /** The screen shown (Settings here); the others are drawn hidden. */
  const shown = () =>
    [...document.querySelectorAll<HTMLElement>('.app__view')].find((view) => !view.hidden)!;
  const field = (key: Parameters<typeof t>[0]) =>
    within(shown()).getAllByLabelText<HTMLInputElement>(t(key))[0]!;
  const typed = () => ({
    name: field('settings.serviceName.label').value,
    address: field('settings.baseUrl.label').value,
    otherAddress: field('settings.services.address').value,
    model: within(document.getElementById('settings-defaults')!).getByLabelText<HTMLInputElement>(
      t('compose.model.label'),
    ).value,
  });

  it('keeps the service’s name, its address, another service’s address and the default model as typed', async () => {
    const { user } = await startWiredApp();
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    const saved = useAppStore.getState().settings;
    const edits = {
      name: 'Studio render box',
      address: 'https://render.example.test/v1',
      otherAddress: 'https://proxy.example.test/',
      model: 'my-own-model',
    };
    const model = within(document.getElementById('settings-defaults')!).getByLabelText(
      t('compose.model.label'),
    );
    for (const [input, text] of [
      [field('settings.serviceName.label'), edits.name],
      [field('settings.baseUrl.label'), edits.address],
      [field('settings.services.address'), edits.otherAddress],
      [model, edits.model],
    ] as const) {
      await user.clear(input);
      await user.type(input, text);
    }
    expect(typed()).toEqual(edits);

    await act(() => applyLocale('de'));
    // Drawn anew in German: each field as typed, nothing saved.
    expect(screen.getByRole('button', { name: 'Einstellungen' })).toBeTruthy();
    expect(typed()).toEqual(edits);
    expect(useAppStore.getState().settings).toEqual(saved);

    // Saved, the name shows as saved; a switch back keeps it (and the other fields as typed).
    await user.click(within(shown()).getByRole('button', { name: t('settings.serviceName.save') }));
    await waitFor(() => expect(useAppStore.getState().settings?.serviceName).toBe(edits.name));
    await act(() => applyLocale('en'));
    expect(typed()).toEqual(edits);
  });
});

describe('a language switch, over a dialog being typed in', () => {
  it('keeps the template editor and a board’s rename open, with what was typed', async () => {
    const { user } = await startWiredApp({
      prepare: (main) => void main.runtime.core.boards.create('Mood'),
    });
    const templates = () => screen.getByRole('dialog', { name: t('templates.manage.title') });
    const editorField = (key: Parameters<typeof t>[0]) =>
      within(
        within(templates()).getByRole('form', { name: t('templates.manage.editor') }),
      ).getByRole<HTMLInputElement>('textbox', { name: t(key) }).value;

    // A new template: a name and a body typed, not saved.
    await user.click(screen.getByRole('button', { name: 'Manage templates…' }));
    await user.click(within(templates()).getByRole('button', { name: 'New template' }));
    await user.type(within(templates()).getByRole('textbox', { name: 'Name' }), 'Portraits');
    await user.type(within(templates()).getByRole('textbox', { name: 'Template' }), ' at dusk');
    await act(() => applyLocale('de'));
    expect(screen.getByRole('button', { name: 'Einstellungen' })).toBeTruthy();
    expect(editorField('templates.manage.name')).toBe('Portraits');
    expect(editorField('templates.manage.body')).toBe('{{prompt}} at dusk');
    await user.click(
      within(templates()).getByRole('button', { name: t('templates.manage.cancel') }),
    );
    await user.keyboard('{Escape}');
    await act(() => applyLocale('en'));

    // A board's rename: a new name typed, not confirmed.
    await user.click(screen.getByRole('button', { name: 'Gallery' }));
    const board = await screen.findByRole('treeitem', { name: /^Mood/ });
    act(() => board.focus());
    await user.keyboard('{Shift>}{F10}{/Shift}');
    const menu = await screen.findByRole('menu');
    await waitFor(() => expect(document.activeElement?.getAttribute('role')).toBe('menuitem'));
    await user.click(within(menu).getByRole('menuitem', { name: 'Rename…' }));
    const rename = () =>
      screen.getByRole('dialog', { name: t('triage.boards.renameTitle', { board: 'Mood' }) });
    const name = within(rename()).getByRole('textbox');
    await user.clear(name);
    await user.type(name, 'Moodboard');
    await act(() => applyLocale('de'));
    expect(screen.getByRole('button', { name: 'Galerie' })).toBeTruthy();
    expect(within(rename()).getByRole<HTMLInputElement>('textbox').value).toBe('Moodboard');
  });
});
