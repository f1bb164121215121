/**
 * What a language switch keeps that language-switch-dialogs.test.tsx does not: Settings' ComfyUI
 * workflow import (the file main picked, its model name and its role map), a date filter partly
 * typed, and the edit panel's library reference chosen. app.tsx draws the whole window anew in a
 * new language (keyed on it), so each lived in a component's own state and was lost. Here each is
 * chosen or typed, the language switched, and found as it was; cancelled or closed, each starts as
 * before. The workflow's token stays main's handle: the save after the switch is the one main holds.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { act, screen, waitFor, within } from '@testing-library/react';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale, t } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage, makeTask } from '../../../support/task-records';
import { connectService } from '../dialect-services';
import { putLibraryTask } from '../library-images';
import { startWiredApp } from '../render-wired-app';
import { EXPORTED_WORKFLOW } from '../../../support/comfy-export';

afterEach(async () => {
  await applyLocale('en');
});

/** The window drawn anew in German (its sidebar's Settings in German). */
async function toGerman(): Promise<void> {
  await act(() => applyLocale('de'));
  expect(screen.getByRole('button', { name: 'Einstellungen' })).toBeTruthy();
}

describe('a language switch, over Settings’ ComfyUI workflow import', () => {
  it('keeps the file picked, its name and its map, and saves with the token main gave', async () => {
    const app = await startWiredApp({
      prepare: async (main) => void (await connectService(main, 'comfyui', { key: null })),
    });
    const { user, main } = app;
    const path = join(main.dir, 'my-sdxl.json');
    await writeFile(path, JSON.stringify(EXPORTED_WORKFLOW));
    main.env.PICTOR_E2E_OPEN_WORKFLOW = path;
    act(() => useAppStore.getState().setView('settings'));
    const panel = () =>
      within(screen.getByRole('region', { name: 'ComfyUI' })).getByRole('region', {
        name: t('settings.workflows.title'),
      });
    await user.click(within(panel()).getByRole('button', { name: t('settings.workflows.import') }));
    const name = () =>
      within(panel()).getByLabelText<HTMLInputElement>(t('settings.workflows.name'));
    const role = (key: Parameters<typeof t>[0]) =>
      within(panel()).getByLabelText<HTMLSelectElement>(t(key));
    await waitFor(() => expect(name().value).toBe('my-sdxl'));
    await user.clear(name());
    await user.type(name(), 'evening');
    await user.selectOptions(role('settings.workflows.role.negative'), '12.text');
    await user.selectOptions(role('settings.workflows.role.seed'), '');
    await toGerman();
    expect(name().value).toBe('evening');
    expect(role('settings.workflows.role.prompt').value).toBe('11.text');
    expect(role('settings.workflows.role.negative').value).toBe('12.text');
    expect(role('settings.workflows.role.seed').value).toBe('');
    await user.click(within(panel()).getByRole('button', { name: t('settings.workflows.save') }));
    await waitFor(async () =>
      expect((await main.runtime.core.workflows.lookup('evening'))?.map).toEqual({
        prompt: '11.text',
        negative: '12.text',
        width: '13.width',
        height: '13.height',
        steps: '14.steps',
      }),
    );
    // One pick, one save with its token: the kept handle is the one main gave, not another.
    expect(main.callsTo('workflows:pick')).toHaveLength(1);
    expect(useAppStore.getState().formDrafts['workflows.import']).toBeUndefined();

    // Picked again and cancelled: nothing is kept, over a switch either.
    await user.click(within(panel()).getByRole('button', { name: t('settings.workflows.import') }));
    await waitFor(() => expect(name().value).toBe('my-sdxl'));
    await user.click(within(panel()).getByRole('button', { name: t('common.cancel') }));
    await act(() => applyLocale('en'));
    expect(within(panel()).queryByLabelText(t('settings.workflows.name'))).toBeNull();
  });
});

describe('a language switch, over the gallery’s date filters', () => {
  it('keeps a date partly typed, and drops it when the filter’s day changes', async () => {
    const { user } = await startWiredApp();
    act(() => useAppStore.getState().setView('gallery'));
    const from = () => screen.getByLabelText<HTMLInputElement>(t('gallery.from.label'));
    const to = () => screen.getByLabelText<HTMLInputElement>(t('gallery.to.label'));
    await user.type(await screen.findByLabelText(t('gallery.from.label')), '3/14');
    // A day in use, then typed over and not yet read.
    await user.type(to(), '12/31/2026{Enter}');
    expect(useAppStore.getState().galleryFilters.to).toBe('2026-12-31');
    await user.clear(to());
    await user.type(to(), '1/2');
    await toGerman();
    expect(from().value).toBe('3/14');
    expect(to().value).toBe('1/2');
    expect(useAppStore.getState().galleryFilters.to).toBe('2026-12-31');
    // Read in German's order, the day filters by it and shows in German's form.
    await user.type(to(), '.2027{Enter}');
    expect(useAppStore.getState().galleryFilters.to).toBe('2027-02-01');
    expect(to().value).toBe('01.02.2027');
    // A day set from outside ("Clear filters") replaces what is typed, as before.
    act(() => useAppStore.getState().gallerySetFilters({ to: '' }));
    expect(to().value).toBe('');
    await act(() => applyLocale('en'));
    expect(to().value).toBe('');
    expect(from().value).toBe('3/14');
  });
});

describe('a language switch, over the edit panel', () => {
  it('keeps the library image chosen as the next reference, until the panel closes', async () => {
    const png = (width: number) =>
      sharp({ create: { width, height: width, channels: 3, background: '#6688aa' } })
        .png()
        .toBuffer();
    const { user } = await startWiredApp({
      prepare: async (main) => {
        putLibraryTask(main, 'task-1', [await png(64)], { taskId: 'svc-1', prompt: 'a harbour' });
        putLibraryTask(main, 'batch-1', [await png(32), await png(48)], {
          taskId: 'svc-2',
          prompt: 'a red boat',
        });
      },
    });
    const record = makeTask({
      localId: 'batch-1',
      taskId: 'svc-2',
      status: 'completed',
      prompt: 'a red boat',
      images: [makeImage(0), makeImage(1)],
    });
    act(() => {
      useAppStore.getState().recordsPut([{ record, live: null }]);
      useAppStore.setState({ galleryRefs: [0, 1].map((index) => ({ localId: 'batch-1', index })) });
    });
    const open = () =>
      act(() =>
        useAppStore
          .getState()
          .editOpenFromLibrary({ localId: 'task-1', index: 0 }, 'a sky', { operation: 'edit' }),
      );
    const radios = () =>
      within(
        within(screen.getByRole('dialog', { name: t('edit.title') })).getByRole('group', {
          name: t('edit.referenceLibrary'),
        }),
      ).getAllByRole<HTMLInputElement>('radio');
    await open();
    await waitFor(() => expect(radios()).toHaveLength(2));
    expect(radios().map((radio) => radio.checked)).toEqual([true, false]);
    await user.click(radios()[1]!);
    await toGerman();
    expect(radios().map((radio) => radio.checked)).toEqual([false, true]);
    // Closed and opened again: the first image, as before.
    act(() => useAppStore.getState().editClose());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await open();
    await waitFor(() => expect(radios().map((radio) => radio.checked)).toEqual([true, false]));
  });
});
