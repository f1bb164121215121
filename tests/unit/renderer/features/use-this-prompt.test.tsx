/**
 * "Use this prompt" is one action wherever it is offered, under one name: a task's row, its
 * details, the image viewer over the Tasks screen and the gallery's image viewer each fill the
 * form with the same request (prompt, model, size, quality, the model's options and the seed asked
 * for, locked). The two viewers once called it "Use this prompt again" and filled the form from
 * the image's few fields (prompt, model, size, quality): the options and seed were dropped, so the
 * form sent another request than the task's.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { itemKey } from '../../../../renderer/store/gallery-list-model';
import type { ComposeDraft } from '../../../../renderer/store/compose-draft';
import { seedGallery } from '../gallery/gallery-wired';
import { startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

const main = sharedWiredMain();

const PROMPT = 'Prompt number 0';
const localId = 'seed-000000';
/** A request with every field the form takes again, the model's own options and seed among them. */
const REQUEST = {
  prompt: PROMPT,
  model: 'gpt-image-1',
  size: '1536x1024',
  quality: 'high' as const,
  params: { background: 'transparent', output_compression: 80 },
  seed: 4242,
};

/** What of the form a request fills (the rest is the user's own). */
function filled(draft: ComposeDraft) {
  const { provider, prompt, model, size, quality, params, seed, seedLocked } = draft;
  return { provider, prompt, model, size, quality, params, seed, seedLocked };
}

async function start() {
  return startWiredApp({
    main,
    prepare: (wired) =>
      void seedGallery(wired, 1, () => ({ status: 'completed', request: REQUEST, seed: 4242 })),
  });
}

/** Empties the form, runs `press`, and gives what it filled once the prompt shows it. */
async function filledBy(press: () => Promise<void>) {
  const empty = useAppStore.getInitialState().composeDraft;
  act(() => useAppStore.setState({ composeDraft: empty }));
  await press();
  await waitFor(() => expect(useAppStore.getState().composeDraft.prompt).toBe(PROMPT));
  return filled(useAppStore.getState().composeDraft);
}

const row = () => screen.getByRole('article', { name: PROMPT });
const imageViewer = () => screen.findByRole('dialog', { name: 'Image viewer' });

describe('"Use this prompt", from every place that offers it', () => {
  it('fills the form with the task’s whole request, the same from each', async () => {
    const { user } = await start();
    const fromRow = await filledBy(() =>
      user.click(within(row()).getByRole('button', { name: 'Use this prompt' })),
    );
    expect(fromRow).toMatchObject({
      prompt: PROMPT,
      model: 'gpt-image-1',
      size: '1536x1024',
      quality: 'high',
      seed: '4242',
      seedLocked: true,
    });
    expect(Object.values(fromRow.params)).toContainEqual({
      background: 'transparent',
      output_compression: '80',
    });

    const fromDetails = await filledBy(async () => {
      await user.click(within(row()).getByRole('button', { name: 'Details' }));
      const details = screen.getByRole('dialog', { name: 'Task details' });
      await user.click(within(details).getByRole('button', { name: 'Use this prompt' }));
    });
    expect(fromDetails).toEqual(fromRow);

    const fromTaskViewer = await filledBy(async () => {
      await user.click(within(row()).getByRole('button', { name: 'Open image 1 of 1' }));
      await user.click(
        within(await imageViewer()).getByRole('button', { name: 'Use this prompt' }),
      );
    });
    expect(fromTaskViewer).toEqual(fromRow);

    const fromGallery = await filledBy(async () => {
      act(() => useAppStore.getState().setView('gallery'));
      await waitFor(() => expect(useAppStore.getState().galleryStatus).toBe('ready'));
      // As a tile's click opens it (the grid's layout is not this file's: gallery-viewer.test).
      act(() => useAppStore.getState().galleryOpenViewer(itemKey({ localId, index: 0 })));
      await user.click(
        within(await imageViewer()).getByRole('button', { name: 'Use this prompt' }),
      );
    });
    expect(fromGallery).toEqual(fromRow);
    expect(useAppStore.getState().view).toBe('tasks');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
