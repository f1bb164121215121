/**
 * Task details say what Pictor removed from an image's metadata for a held key, in the viewer's
 * words (one label and sentence: shared/i18n/key-removed.ts, the main catalogue): the part that
 * carried the key, or its Content Credentials with it; an image that lost nothing says nothing.
 */
import { screen, within } from '@testing-library/react';
import { expect, it } from 'vitest';
import type { ImageRecord } from '../../../../shared/domain/task-record';
import { makeImage } from '../../../support/task-records';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

/** Main's own history (tests/support/wired-api.ts), one runtime for the file. */
const main = sharedWiredMain();

const REMOVED: Array<ImageRecord['keyRemoved']> = ['metadata', 'credentials', undefined];

it('says in the details what was removed for a held key, as the viewer says it', async () => {
  const { user } = await startWiredApp({
    main,
    prepare: (wired) =>
      void seedHistory(wired, REMOVED.length, (index) => ({
        status: 'completed',
        images: [
          makeImage(0, {
            file: `k/${String(index)}.png`,
            ...(REMOVED[index] ? { keyRemoved: REMOVED[index] } : {}),
          }),
        ],
      })),
  });
  const removedOf = async (index: number) => {
    const row = screen.getAllByRole('article')[index]!;
    await user.click(within(row).getByRole('button', { name: 'Details' }));
    const details = screen.getByRole('dialog', { name: 'Task details' });
    const text =
      within(details).queryByText('Metadata removed')?.nextElementSibling?.textContent ?? null;
    await user.keyboard('{Escape}');
    return text;
  };
  expect(await removedOf(0)).toBe(
    'When Pictor saved this image, it removed the part of its metadata that carried your API key. The pixels are as the service sent them.',
  );
  expect(await removedOf(1)).toBe(
    'When Pictor saved this image, it removed the part of its metadata that carried your API key, and its Content Credentials with it (they would no longer match the file). The pixels are as the service sent them.',
  );
  expect(await removedOf(2)).toBeNull();
});
