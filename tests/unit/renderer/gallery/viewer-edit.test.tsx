/**
 * The viewer's images-as-inputs part over the fake API: "Upscale ×2" opens the edit panel on the
 * image shown; the image's stack is a strip stepped through with the keys, each version with its
 * operation and model; "Compare with original" is a slider the keys move (←/→, Home/End) with
 * its name and value, both images in one frame.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { inputImage } from '../../../fakes/fake-inputs';
import { renderGallery, seedImages } from './gallery-harness';

const ORIGINAL = 'seed-000001';

/** The original's own entry, which main lists first when the library has the original. */
const ORIGINAL_ENTRY = {
  localId: ORIGINAL,
  index: 0,
  operation: null,
  provider: 'pictor',
  prompt: 'Prompt number 1',
  createdAt: 0,
  state: 'saved',
} as const;

/** The edit's upscale ×2 (seed-000000), the stack's last version. */
const UPSCALE_ENTRY = {
  localId: 'seed-000000',
  index: 0,
  operation: 'upscale',
  parent: { localId: 'seed-000002', index: 0 },
  provider: 'replicate',
  model: 'nightmareai/real-esrgan',
  prompt: 'make the sky pink',
  createdAt: 2,
  state: 'saved',
  factor: 2,
} as const;

async function openViewer(options: { originalEntry?: boolean } = {}) {
  const rendered = await renderGallery({
    events: true,
    prepare: (fake) => {
      seedImages(fake, 3, (n) => ({ prompt: `Prompt number ${String(n)}` }));
      fake.inputs.stacks.set('seed-000002#0', {
        original: { kind: 'library', localId: ORIGINAL, index: 0 },
        entries: [
          ...(options.originalEntry ? [ORIGINAL_ENTRY] : []),
          {
            localId: 'seed-000002',
            index: 0,
            operation: 'edit',
            parent: { localId: ORIGINAL, index: 0 },
            provider: 'fal',
            model: 'fal-ai/flux-pro/kontext',
            prompt: 'make the sky pink',
            createdAt: 1,
            state: 'saved',
          },
          UPSCALE_ENTRY,
        ],
      });
    },
  });
  await rendered.user.click(screen.getByAltText('Prompt number 2'));
  const dialog = await screen.findByRole('dialog', { name: 'Image viewer' });
  return { ...rendered, dialog };
}

// Fault: none main could not make; electron/ipc/input-handlers.ts is a placeholder that refuses
// images:stack and inputs:fromLibrary until it is built, so these flows run on the fake's.
describe('the viewer’s edits', () => {
  it('opens the edit panel on the image shown for an upscale', async () => {
    const { user, dialog, fake } = await openViewer();
    await user.click(within(dialog).getByRole('button', { name: 'Upscale ×2' }));
    await waitFor(() => expect(useAppStore.getState().editPanel).not.toBeNull());
    expect(useAppStore.getState().editPanel?.start).toEqual({ operation: 'upscale', factor: 2 });
    expect(fake.calls.find((c) => c.channel === 'inputs:fromLibrary')?.input).toEqual({
      localId: 'seed-000002',
      index: 0,
    });
  });

  it('shows the stack as a strip stepped through with the keys', async () => {
    const { dialog } = await openViewer();
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
    const { dialog } = await openViewer({ originalEntry: true });
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
    const { dialog, fake } = await openViewer();
    const strip = await within(dialog).findByRole('listbox', { name: 'Versions of this image' });
    expect(within(strip).getAllByRole('option')).toHaveLength(3);
    const stack = fake.inputs.stacks.get('seed-000002#0')!;
    const result = fake.task('seed-000000')!;
    fake.inputs.stacks.set('seed-000002#0', {
      ...stack,
      entries: [...stack.entries, { ...UPSCALE_ENTRY, createdAt: 3, factor: 4 as const }],
    });
    // A running edit (no image yet) does not move the strip; its saved result does.
    const stackReads = () => fake.calls.filter((c) => c.channel === 'images:stack').length;
    const readsBefore = stackReads();
    const inputs = {
      operation: 'upscale' as const,
      source: inputImage(1),
      parent: { localId: 'seed-000002', index: 0 },
      factor: 4 as const,
    };
    act(() => {
      fake.updateTask('seed-000000', {
        request: { ...result.request, inputs },
        images: [],
        status: 'processing',
      });
    });
    expect(stackReads()).toBe(readsBefore);
    act(() => {
      fake.updateTask('seed-000000', {
        request: { ...result.request, inputs },
        images: result.images,
        status: 'completed',
      });
    });
    await waitFor(() => expect(within(strip).getAllByRole('option')).toHaveLength(4));
    expect(within(strip).getAllByRole('option')[3]!.textContent).toBe(
      'Upscale ×4 · nightmareai/real-esrgan',
    );
    // The version shown is still the one chosen.
    expect(within(dialog).getByText('Version 2 of 4')).toBeTruthy();
  });

  it('never shows one image’s versions under another: moving on draws no strip until its own', async () => {
    const { dialog, user, fake } = await openViewer();
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
    // seed-000001 (the image before, newer) is an original with no versions: no strip at all.
    await user.click(within(dialog).getByRole('button', { name: 'Previous image' }));
    await waitFor(() =>
      expect(within(dialog).getAllByAltText('Prompt number 1').length).toBeGreaterThan(0),
    );
    await waitFor(() =>
      expect(fake.calls.filter((c) => c.channel === 'images:stack').length).toBeGreaterThan(1),
    );
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
