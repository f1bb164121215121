/**
 * The image viewer isolates the names it shows from a file or a service: the signer and the
 * generator in the Content Credentials sentences and both models, each in its own `<bdi>`, so a
 * name in a right-to-left script keeps its order inside an English sentence and nothing in one
 * can turn the rest of the line around (tests/unit/renderer/features/isolated-names.test.tsx has
 * the task list, its details and the Costs list).
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ContentCredentials } from '../../../../shared/domain/content-credentials';
import { makeImage } from '../../../support/task-records';
import { isolated, sentenceAround } from '../../../support/isolated-text';
import { seedGallery, wiredGallery } from '../gallery/gallery-wired';

/** Main's own handlers and history (tests/support/wired-api.ts), one runtime for the file. */
const renderWired = wiredGallery();

const SIGNER = 'أوبن إيه آي';
const GENERATOR = 'מחולל 2.0';
const ASKED = 'מודל-תמונה 1';
const REPORTED = 'نموذج-1';
const CREDENTIALS: ContentCredentials = {
  state: 'valid',
  signer: SIGNER,
  generator: GENERATOR,
  trusted: true,
  aiGenerated: true,
};

describe('names in the image viewer', () => {
  it('isolates the signer, the generator and both models', async () => {
    const { user } = await renderWired({
      prepare: (m) =>
        seedGallery(m, 1, () => ({
          request: { prompt: 'Prompt number 0', model: ASKED },
          reportedModel: REPORTED,
          images: [
            makeImage(0, {
              file: 'g/0.png',
              thumbnail: 'g/0.thumb.webp',
              contentCredentials: CREDENTIALS,
            }),
          ],
        })),
    });
    await user.click(await screen.findByAltText('Prompt number 0'));
    const viewer = await screen.findByRole('dialog', { name: 'Image viewer' });
    expect(isolated(viewer)).toEqual(expect.arrayContaining([SIGNER, GENERATOR, ASKED, REPORTED]));
    const headline = viewer.querySelector('.credentials__headline')!;
    expect(sentenceAround(headline, SIGNER)).toBe(`Signed by ⟨${SIGNER}⟩`);
  });

  it('isolates an unverified signer inside the quotes of its verdict', async () => {
    const { user } = await renderWired({
      prepare: (m) =>
        seedGallery(m, 1, () => ({
          request: { prompt: 'Prompt number 0' },
          images: [
            makeImage(0, {
              file: 'g/0.png',
              thumbnail: 'g/0.thumb.webp',
              contentCredentials: { ...CREDENTIALS, trusted: false },
            }),
          ],
        })),
    });
    await user.click(await screen.findByAltText('Prompt number 0'));
    const viewer = await screen.findByRole('dialog', { name: 'Image viewer' });
    const headline = viewer.querySelector('.credentials__headline')!;
    expect(sentenceAround(headline, SIGNER)).toBe(
      `Unverified signer: “⟨${SIGNER}⟩” (not on Pictor’s trust list)`,
    );
  });
});
