/**
 * The viewer's images-as-inputs part over the real main (its stacks read from the history's lineage): "Upscale ×2" opens the edit panel on the
 * image shown; the image's stack is a strip stepped through with the keys, each version with its
 * operation and model; "Compare with original" is a slider the keys move (←/→, Home/End) with
 * its name and value, both images in one frame. A language switch, which draws the window anew,
 * keeps the version chosen and its comparison open (not a close of the viewer).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale, t } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import type { ImageInputs } from '../../../../shared/domain/image-inputs';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import type { InterceptedApi } from '../../../support/intercepted-api';
import { inputImage, makeImage } from '../../../support/task-records';
import { giveSize } from '../layout-sizes';
import { startWiredApp } from '../render-wired-app';
import { seedGallery, wiredGallery } from './gallery-wired';

/** Main's own handlers, history and lineage (tests/support/wired-api.ts), one runtime for the file. */
const renderWired = wiredGallery();

const ORIGINAL = 'seed-000001';

/** The edit's upscale ×2 (seed-000000), the stack's last version. */
const UPSCALE = {
  provider: 'replicate',
  model: 'nightmareai/real-esrgan',
  inputs: {
    operation: 'upscale',
    source: inputImage(2),
    parent: { localId: 'seed-000002', index: 0 },
    factor: 2,
  },
} as const;

/** The version made from the original: an edit on fal (seed-000002). */
const EDIT = {
  provider: 'fal',
  model: 'fal-ai/flux-pro/kontext',
  inputs: { operation: 'edit', source: inputImage(1), parent: { localId: ORIGINAL, index: 0 } },
} as const;

/** A task of main's history made from an image: `made` says by what, on which service. */
function madeFrom(
  record: TaskRecord,
  made: { provider: 'fal' | 'replicate'; model: string; inputs: ImageInputs },
): Partial<TaskRecord> {
  return {
    provider: made.provider,
    request: { prompt: record.request.prompt, model: made.model, inputs: made.inputs },
    images: record.images,
  };
}

/**
 * Four images in main's history, newest first: an upscale ×2 (seed-000000) of an edit
 * (seed-000002) of the original (seed-000001), and an image of its own (seed-000003); main reads
 * the stack from their lineage. The edit's
 * image is a real PNG (main copies it into the input store when it becomes an input).
 */
async function seedStack(main: InterceptedApi): Promise<void> {
  const records = seedGallery(main, 4, (n) => ({ prompt: `Prompt number ${String(n)}` }));
  const [upscale, , edit] = records as [TaskRecord, TaskRecord, TaskRecord];
  main.runtime.core.history.putMany([
    { ...upscale, ...madeFrom(upscale, UPSCALE) },
    { ...edit, ...madeFrom(edit, EDIT) },
  ]);
  const png = await sharp({
    create: { width: 64, height: 48, channels: 3, background: '#88aacc' },
  })
    .png()
    .toBuffer();
  writeFileSync(join(main.runtime.galleryDir(), 'g', '2.png'), png);
}

async function openViewer(options: { originalEntry?: boolean } = {}) {
  const rendered = await renderWired({
    events: true,
    prepare: async (main) => {
      await seedStack(main);
      // A stack whose original the history no longer lists (main then sends no entry of its own).
      if (options.originalEntry === false) {
        main.intercept.request['images:stack'].handle(async (_image, ofMain) => {
          const answer = await ofMain();
          if (!answer.ok) throw answer.error;
          const stack = answer.value as { original: unknown; entries: Array<{ localId: string }> };
          return {
            ...stack,
            entries: stack.entries.filter((e) => e.localId !== ORIGINAL),
          } as never;
        });
      }
    },
  });
  await rendered.user.click(screen.getByAltText('Prompt number 2'));
  const dialog = await screen.findByRole('dialog', { name: 'Image viewer' });
  return { ...rendered, dialog };
}

const stackReads = (main: InterceptedApi) => main.intercept.request['images:stack'].inputs.length;

describe('the viewer’s edits', () => {
  it('opens the edit panel on the image shown for an upscale', async () => {
    const { user, dialog, main } = await openViewer();
    await user.click(within(dialog).getByRole('button', { name: 'Upscale ×2' }));
    await waitFor(() => expect(useAppStore.getState().editPanel).not.toBeNull());
    expect(useAppStore.getState().editPanel?.start).toEqual({ operation: 'upscale', factor: 2 });
    expect(main.callsTo('inputs:fromLibrary')[0]).toEqual({
      localId: 'seed-000002',
      index: 0,
    });
  });

  it('shows the stack as a strip stepped through with the keys', async () => {
    const { dialog } = await openViewer({ originalEntry: false });
    const strip = await within(dialog).findByRole('listbox', { name: 'Versions of this image' });
    const options = within(strip).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'Original',
      'Edit · fal-ai/flux-pro/kontext',
      'Upscale ×2 · nightmareai/real-esrgan',
    ]);
    expect(options[1]!.getAttribute('aria-selected')).toBe('true');
    expect(within(dialog).getByText('Version 2 of 3')).toBeTruthy();
    fireEvent.keyDown(strip, { key: 'ArrowRight' });
    expect(within(dialog).getByText('Version 3 of 3')).toBeTruthy();
    expect(strip.getAttribute('aria-activedescendant')).toBe(options[2]!.id);
    fireEvent.keyDown(strip, { key: 'Home' });
    expect(within(dialog).getByText('Version 1 of 3')).toBeTruthy();
    // The viewer's own arrows (the previous and next image) do not move while the strip has them.
    expect(screen.getByRole('dialog', { name: 'Image viewer' })).toBe(dialog);
    expect(
      (within(dialog).getByRole('button', { name: 'Compare with original' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);
  });

  it('shows the original once when main lists its own entry first', async () => {
    const { dialog } = await openViewer();
    const strip = await within(dialog).findByRole('listbox', { name: 'Versions of this image' });
    expect(
      within(strip)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'Original',
      'Edit · fal-ai/flux-pro/kontext',
      'Upscale ×2 · nightmareai/real-esrgan',
    ]);
    expect(within(dialog).getByText('Version 2 of 3')).toBeTruthy();
  });

  it('reads the stack again when an edit’s result is saved, so the new version joins the strip', async () => {
    const { dialog, main } = await openViewer();
    const strip = await within(dialog).findByRole('listbox', { name: 'Versions of this image' });
    expect(within(strip).getAllByRole('option')).toHaveLength(3);
    // A new upscale ×4 of the image shown, in main's history and announced as main does.
    const edit = main.runtime.core.history.get('seed-000002')!;
    const running = {
      ...edit,
      ...madeFrom(edit, { ...UPSCALE, inputs: { ...UPSCALE.inputs, factor: 4 } }),
      localId: 'upscale-4',
      createdAt: Date.UTC(2026, 0, 16),
      images: [],
      status: 'processing' as const,
    };
    const announce = (record: TaskRecord) => {
      main.runtime.core.history.putMany([record]);
      main.intercept.event['tasks:updated'].inject([{ change: 'task', record, live: null }]);
    };
    // A running edit (no image yet) does not move the strip; its saved result does.
    const readsBefore = stackReads(main);
    act(() => announce(running));
    expect(stackReads(main)).toBe(readsBefore);
    act(() =>
      announce({ ...running, status: 'completed', images: [makeImage(0, { file: 'g/2.png' })] }),
    );
    await waitFor(() => expect(within(strip).getAllByRole('option')).toHaveLength(4));
    expect(within(strip).getAllByRole('option')[3]!.textContent).toBe(
      'Upscale ×4 · nightmareai/real-esrgan',
    );
    // The version shown is still the one chosen.
    expect(within(dialog).getByText('Version 2 of 4')).toBeTruthy();
  });

  it('never shows one image’s versions under another: moving on draws no strip until its own', async () => {
    const { dialog, user, main } = await openViewer();
    await within(dialog).findByRole('listbox', { name: 'Versions of this image' });
    // Every strip the page puts in from here on, as it puts it in (kept even when it is taken
    // out again in the same turn, before anything could look).
    const drawn: string[][] = [];
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          const strip = node.matches('[role="listbox"]')
            ? node
            : node.querySelector('[role="listbox"]');
          if (strip)
            drawn.push(
              [...strip.querySelectorAll('[role="option"]')].map((o) => o.textContent ?? ''),
            );
        }
      }
    });
    observer.observe(dialog, { childList: true, subtree: true });
    // seed-000003 (the image after, older) is an image with no versions: no strip at all.
    await user.click(within(dialog).getByRole('button', { name: 'Next image' }));
    await waitFor(() =>
      expect(within(dialog).getAllByAltText('Prompt number 3').length).toBeGreaterThan(0),
    );
    await waitFor(() => expect(stackReads(main)).toBeGreaterThan(1));
    observer.disconnect();
    expect(within(dialog).queryByRole('listbox', { name: 'Versions of this image' })).toBeNull();
    expect(drawn).toEqual([]);
  });

  it('compares with the original on a slider the keys move', async () => {
    const { dialog, user } = await openViewer();
    await within(dialog).findByRole('listbox', { name: 'Versions of this image' });
    await user.click(within(dialog).getByRole('button', { name: 'Compare with original' }));
    const compare = await screen.findByRole('dialog', { name: 'Original and this image' });
    const before = within(compare).getByAltText('Original');
    const after = within(compare).getByAltText('This image');
    expect(before.getAttribute('src')).toBe('pictor-gallery://gallery/g/1.png');
    expect(after.getAttribute('src')).toBe('pictor-gallery://gallery/g/2.png');
    expect(before.className).toBe(after.className);
    const slider = within(compare).getByRole('slider', {
      name: 'Divider between the original and this image',
    });
    expect(document.activeElement).toBe(slider);
    expect(slider.getAttribute('aria-valuenow')).toBe('50');
    await user.keyboard('{ArrowRight}');
    expect(slider.getAttribute('aria-valuenow')).toBe('55');
    expect(slider.getAttribute('aria-valuetext')).toBe('55 % of the original shown');
    await user.keyboard('{Home}');
    expect(slider.getAttribute('aria-valuenow')).toBe('0');
    await user.keyboard('{End}');
    expect(slider.getAttribute('aria-valuenow')).toBe('100');
    await user.keyboard('{ArrowLeft}');
    expect(slider.getAttribute('aria-valuenow')).toBe('95');
    expect(before.style.clipPath).toBe('inset(0 5% 0 0)');
    // The arrows moved the slider, not the viewer to another image.
    expect(within(dialog).getAllByAltText('Prompt number 2').length).toBeGreaterThan(0);
    expect(within(dialog).queryAllByAltText('Prompt number 1')).toHaveLength(0);
  });
});

describe('a language switch, over the viewer’s stack', () => {
  afterEach(async () => {
    await applyLocale('en');
  });

  it('keeps the version chosen and its comparison open; a close forgets them', async () => {
    // The whole window (app.tsx, keyed on the language), over its own main.
    const { user } = await startWiredApp({ prepare: seedStack });
    giveSize('.gallery-grid', { width: 900, height: 600 });
    await user.click(screen.getByRole('button', { name: 'Gallery' }));
    const tile = () =>
      document.querySelector<HTMLElement>('.gallery-grid [data-key="seed-000002/0"] img')!;
    await waitFor(() => expect(tile()).toBeTruthy());
    await user.click(tile());
    const strip = () => screen.getByRole('listbox', { name: t('edit.stack') });
    const shown = (index: number) => t('edit.stackShown', { index, count: 3 });
    await screen.findByRole('listbox', { name: t('edit.stack') });
    fireEvent.keyDown(strip(), { key: 'End' });
    expect(screen.getByText(shown(3))).toBeTruthy();
    await user.click(screen.getByRole('button', { name: t('edit.compareOriginal') }));
    await screen.findByRole('dialog', { name: t('edit.compareTitle') });
    await act(() => applyLocale('de'));
    expect(shown(3)).not.toBe('Version 3 of 3');
    expect(await screen.findByText(shown(3))).toBeTruthy();
    expect(strip().getAttribute('aria-activedescendant')).toBe('stack-2');
    expect(screen.getByRole('dialog', { name: t('edit.compareTitle') })).toBeTruthy();
    // Closed and opened again on the same image: its own version, no comparison, as before.
    act(() => useAppStore.getState().galleryCloseViewer());
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    await user.click(tile());
    expect(await screen.findByText(shown(2))).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: t('edit.compareTitle') })).toBeNull();
  });
});
