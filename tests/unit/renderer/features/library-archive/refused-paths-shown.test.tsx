/**
 * The paths Settings › Library lists as left out of an export or refused by an import come from
 * folders and archives anyone could have written: a task folder a rebuild took in as it was named
 * (its record's `folder`, with a right-to-left override that shows `gnp.exe` as `exe.png`, or a
 * zero-width space that makes two names look alike), an archive's entry names. The list shows
 * each path by the one rule for shown values (shared/text/shown-value.ts): every character that
 * steers or hides text as U+FFFD, so the path reads as what it is.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../../renderer/store/app-store';
import { startWiredApp } from '../../render-wired-app';
import { sharedWiredMain } from '../../shared-wired-main';

const quietMain = sharedWiredMain();

async function openLibrary() {
  const app = await startWiredApp({ main: quietMain });
  act(() => useAppStore.getState().setView('settings'));
  const region = await screen.findByRole('region', { name: 'Library' });
  return { ...app, region };
}

/** Crafted paths and how the list must show them. */
const CRAFTED: readonly (readonly [string, string])[] = [
  ['2025/01/trip\u202Egnp.exe/image-1.png', '2025/01/trip\uFFFDgnp.exe/image-1.png'],
  ['2025/01/a\u200Bb/image-1.png', '2025/01/a\uFFFDb/image-1.png'],
  ['2025/01/\u2066x\u2069\u200E/pictor.json', '2025/01/\uFFFDx\uFFFD\u200E/pictor.json'],
  ['2025/02/line\u2028break/image-1.png', '2025/02/line break/image-1.png'],
];

function listed(region: HTMLElement): string[] {
  return [...region.querySelectorAll('.library-refusals li .mono')].map((e) => e.textContent ?? '');
}

describe('paths left out or refused, as Settings › Library lists them', () => {
  // Fault: archive:export and archive:import answered in main's place with crafted paths.
  it('an export’s left-out task folders and an import’s refused entries', async () => {
    const { user, main, region } = await openLibrary();
    const { request } = main.intercept;
    const refusals = CRAFTED.map(([path]) => ({ path, reason: 'The file could not be read.' }));
    request['archive:export'].reply({
      summary: {
        file: '/tmp/lib.zip',
        tasks: 1,
        images: 1,
        bytes: 10,
        keyRemoved: 0,
        skipped: refusals,
        skippedTotal: 4,
      },
    });
    await user.click(within(region).getByRole('button', { name: 'Export all…' }));
    await waitFor(() => expect(listed(region)).toEqual(CRAFTED.map(([, shown]) => shown)));

    request['archive:import'].reply({
      summary: {
        addedTasks: 0,
        addedImages: 0,
        duplicateTasks: 0,
        duplicateImages: 0,
        refused: refusals,
        refusedTotal: 4,
        cancelled: false,
        notes: [],
      },
    });
    await user.click(within(region).getByRole('button', { name: 'Import archive…' }));
    await within(region).findByText('Added 0 tasks and 0 images.');
    expect(listed(region)).toEqual(CRAFTED.map(([, shown]) => shown));
  });

  it('an export’s summary says how many images were saved with their key-carrying metadata removed', async () => {
    const { user, main, region } = await openLibrary();
    const summary = { file: '/tmp/lib.zip', tasks: 2, images: 3, bytes: 10, skipped: [] };
    main.intercept.request['archive:export'].reply({
      summary: { ...summary, keyRemoved: 2, skippedTotal: 0 },
    });
    await user.click(within(region).getByRole('button', { name: 'Export all…' }));
    await within(region).findByText(
      '2 images in the archive are without the metadata that carried your API key: Pictor removed it when it saved them.',
    );
  });
});
