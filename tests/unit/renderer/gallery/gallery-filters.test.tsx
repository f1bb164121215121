import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectGalleryItems } from '../../../../renderer/store/record-selectors';
import { makeImage } from '../../../support/task-records';
import { keyOf, tile } from './gallery-harness';
import { seedHistory } from '../render-wired-app';
import { seedGallery, wiredGallery } from '../gallery/gallery-wired';

/** Main's own handlers and history (tests/support/wired-api.ts), one runtime for the file. */
const renderWired = wiredGallery();
/** The same, with the host saying the network is off. */
const renderOffline = wiredGallery({ online: false });

const lastList = (calls: unknown[]): unknown => calls.at(-1);

describe('gallery filters', () => {
  it('searches by prompt once typing pauses', async () => {
    const { user, main } = await renderOffline({ prepare: (m) => seedGallery(m, 30) });
    await user.type(screen.getByRole('searchbox', { name: 'Search prompts' }), '2 number');
    // Nothing is sent for each key press: one query once typing pauses.
    await waitFor(() =>
      expect(lastList(main.callsTo('gallery:list'))).toMatchObject({ search: '2 number' }),
    );
    expect(main.callsTo('gallery:list').filter((query) => query.search)).toHaveLength(1);
    // Every word anywhere, in any order: numbers 2, 12 and 20 to 29.
    await waitFor(() => expect(selectGalleryItems(useAppStore.getState())).toHaveLength(12));
    expect(screen.getByAltText('Prompt number 20')).toBeTruthy();
  });

  it('offers every model in the gallery, also those on pages not loaded yet', async () => {
    await renderWired({
      prepare: (m) =>
        seedGallery(m, 450, (index) => ({
          request: {
            prompt: `Prompt ${String(index)}`,
            model: index === 449 ? 'rare-model' : 'demo-1',
          },
        })),
    });
    await waitFor(() =>
      expect(
        within(screen.getByRole('combobox', { name: 'Model' }))
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toContain('rare-model'),
    );
    expect(selectGalleryItems(useAppStore.getState()).length).toBeLessThan(450);
  });

  it('filters by favourite, model and date range', async () => {
    const { user, main } = await renderWired({
      prepare: (m) =>
        seedGallery(m, 12, (index) => ({
          request: {
            prompt: `Prompt ${String(index)}`,
            model: index % 2 ? 'gpt-image-1' : 'demo-1',
          },
        })),
    });
    await user.click(screen.getByRole('checkbox', { name: 'Picks only' }));
    await waitFor(() =>
      expect(lastList(main.callsTo('gallery:list'))).toMatchObject({ favourite: true }),
    );
    expect(await screen.findByText('No images match these filters')).toBeTruthy();
    expect(await screen.findByText('No images shown.')).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: 'Picks only' }));

    const model = screen.getByRole('combobox', { name: 'Model' });
    const options = within(model)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual(['All models', 'demo-1', 'gpt-image-1']);
    await user.selectOptions(model, 'gpt-image-1');
    await waitFor(() =>
      expect(lastList(main.callsTo('gallery:list'))).toMatchObject({ model: 'gpt-image-1' }),
    );
    await waitFor(() => expect(selectGalleryItems(useAppStore.getState())).toHaveLength(6));
    expect(await screen.findByText('6 images shown.')).toBeTruthy();

    // Typed as the user writes a day here (month first in en-US), or year first.
    await user.type(screen.getByLabelText('From'), '01/14/2026{Enter}');
    await user.type(screen.getByLabelText('To'), '2026-01-15{Enter}');
    await waitFor(() =>
      expect(lastList(main.callsTo('gallery:list'))).toMatchObject({
        model: 'gpt-image-1',
        from: new Date(2026, 0, 14).getTime(),
        to: new Date(2026, 0, 16).getTime() - 1,
      }),
    );

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() =>
      expect(lastList(main.callsTo('gallery:list'))).toEqual({
        states: ['pending', 'saved', 'expired', 'invalid'],
        limit: 200,
      }),
    );
  });

  it('says what to do when the gallery is empty, and offers to try again when it cannot be read', async () => {
    const empty = await renderWired();
    expect(await screen.findByText('No images yet')).toBeTruthy();
    await empty.user.click(screen.getByRole('button', { name: 'Write a prompt' }));
    expect(useAppStore.getState().view).toBe('tasks');
    empty.unmount();

    useAppStore.setState(useAppStore.getInitialState(), true);
    // Fault: the gallery folder cannot be read (gallery:list fails once, the contract's interceptor).
    const broken = await renderWired({
      prepare: (m) => {
        seedGallery(m, 3);
        m.intercept.request['gallery:list'].fail(
          { code: 'failed', message: 'The gallery folder cannot be read.' },
          1,
        );
      },
    });
    expect(await screen.findByText('The gallery folder cannot be read.')).toBeTruthy();
    await broken.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByAltText('Prompt number 2')).toBeTruthy();
  });
});

describe('images that did not arrive', () => {
  /** One task whose images went each way an image can go. */
  const states = () => ({
    prompt: 'A harbour',
    images: [
      makeImage(0, { state: 'pending', error: 'The connection dropped.', file: undefined }),
      makeImage(1, { state: 'expired', file: undefined, thumbnail: undefined }),
      makeImage(2, { state: 'invalid', file: undefined, thumbnail: undefined }),
      makeImage(3, { state: 'pending', file: undefined, thumbnail: undefined }),
      makeImage(4, { state: 'deleted' }),
      makeImage(5),
    ],
  });

  it('say so on the tile, with Retry where it can still work; deleted images are not shown', async () => {
    await renderWired({ prepare: (m) => seedHistory(m, 1, states) });
    const cell = (index: number) => tile(`seed-000000/${String(index)}`);
    expect(cell(0).textContent).toContain('Download failed');
    expect(
      within(cell(0)).getByRole('button', { name: 'Retry the download of “A harbour”' }),
    ).toBeTruthy();
    expect(cell(1).textContent).toContain('Link expired');
    expect(within(cell(1)).queryByRole('button', { name: /^Retry/ })).toBeTruthy();
    expect(cell(2).textContent).toContain('Not a usable image');
    expect(within(cell(2)).queryByRole('button', { name: /^Retry/ })).toBeNull();
    expect(cell(3).textContent).toContain('Downloading…');
    expect(within(cell(3)).queryByRole('button', { name: /^Retry/ })).toBeNull();
    expect(document.querySelector('[data-key="seed-000000/4"]')).toBeNull();
    expect(screen.getAllByRole('gridcell')).toHaveLength(5);
    expect(within(cell(5)).getByAltText('A harbour')).toBeTruthy();
  });

  it('retries through tasks:retryImages and announces it', async () => {
    const { user, main } = await renderWired({ prepare: (m) => seedHistory(m, 1, states) });
    // Main answers the retry at once and puts the image back to pending, as its retry does before
    // the download (a real one would fetch the made-up address and fail again while the test looks).
    const retry = main.intercept.request['tasks:retryImages'];
    retry.handle(({ localId }) => {
      const record = main.runtime.core.history.get(localId)!;
      const images = record.images.map((image) =>
        image.state === 'expired' ? { ...image, state: 'pending' as const } : image,
      );
      const item = { record: { ...record, images }, live: null };
      main.runtime.core.history.putMany([item.record]);
      main.intercept.event['tasks:updated'].inject([{ change: 'task', ...item }]);
      return item;
    });
    await user.click(within(tile('seed-000000/1')).getByRole('button', { name: /^Retry/ }));
    expect(retry.inputs).toEqual([{ localId: 'seed-000000' }]);
    expect(await screen.findByText('Retrying the download.')).toBeTruthy();
    await waitFor(() => expect(tile('seed-000000/1').textContent).toContain('Downloading…'));
  });

  it('shows a missing file when the thumbnail does not load', async () => {
    await renderWired({ prepare: (m) => seedGallery(m, 2) });
    fireEvent.error(screen.getByAltText('Prompt number 1'));
    expect(tile(keyOf(1)).textContent).toContain('File not found');
  });
});

describe('with the network off', () => {
  it('browses, filters and opens images using only the local gallery', async () => {
    // The store does not start as the app's does (its start reads settings, keys and the task
    // list): every request counted below is the gallery's own.
    const { user, main } = await renderOffline({
      prepare: (m) => seedGallery(m, 30),
      events: false,
    });
    await user.type(screen.getByRole('searchbox', { name: 'Search prompts' }), 'number 1');
    // Numbers 1, 10 to 19 and 21: every word anywhere.
    await waitFor(() => expect(selectGalleryItems(useAppStore.getState())).toHaveLength(12));
    await user.click(screen.getByAltText('Prompt number 12'));
    const dialog = await screen.findByRole('dialog');
    await user.keyboard('{ArrowRight}');
    await user.click(within(dialog).getByRole('button', { name: 'Copy image' }));
    const channels = new Set(main.calls.map((call) => call.channel));
    // The gallery's own requests, the boards sidebar's list of the library's boards, the
    // Template filter's list of the library's templates, the Compare group filter's groups and
    // the viewer's stack of versions and their files (both read from the history).
    const local = (channel: string) =>
      channel.startsWith('gallery:') ||
      channel === 'images:stack' ||
      channel === 'tasks:get' ||
      channel === 'triage:library' ||
      channel === 'templates:list' ||
      channel === 'compare:groups';
    expect([...channels].filter((channel) => !local(channel))).toEqual([]);
    expect(channels.has('gallery:list')).toBe(true);
  });
});
