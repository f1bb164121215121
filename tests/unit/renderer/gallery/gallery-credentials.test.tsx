/**
 * Content Credentials in the window: the viewer says who signed an image and what that means,
 * in the window's words (trusted or not, AI-generated, invalid with C2PA's codes); the task
 * details say it per image; the gallery's "Has Content Credentials" filter lists only such images.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ContentCredentials } from '../../../../shared/domain/content-credentials';
import { makeImage } from '../../../fakes/fake-pictor-api';
import { renderGallery, seedImages } from './gallery-harness';

const VERDICTS: Array<ContentCredentials | undefined> = [
  { state: 'valid', signer: 'OpenAI', generator: 'ChatGPT 1.0', trusted: true, aiGenerated: true },
  { state: 'valid', signer: 'Someone', trusted: false, aiGenerated: false },
  { state: 'invalid', codes: ['assertion.dataHash.mismatch'] },
  { state: 'none' },
  undefined,
];

async function gallery() {
  return renderGallery({
    prepare: (f) =>
      seedImages(f, VERDICTS.length, (n) => ({
        request: { prompt: `Prompt number ${String(n)}` },
        images: [
          makeImage(0, {
            file: `g/${String(n)}.png`,
            thumbnail: `g/${String(n)}.thumb.webp`,
            ...(VERDICTS[n] ? { contentCredentials: VERDICTS[n] } : {}),
          }),
        ],
      })),
  });
}

async function viewerText(n: number): Promise<string> {
  const { user } = await gallery();
  await user.click(screen.getByAltText(`Prompt number ${String(n)}`));
  const dialog = await screen.findByRole('dialog', { name: 'Image viewer' });
  return dialog.textContent ?? '';
}

describe('Content Credentials in the image viewer', () => {
  it('names a trusted signer, says AI-generated and what it means', async () => {
    const text = await viewerText(0);
    expect(text).toContain('Content Credentials');
    expect(text).toContain('Signed by OpenAI, AI-generated');
    expect(text).toContain('OpenAI is on the list of signers Pictor trusts');
    expect(text).toContain('Made with ChatGPT 1.0.');
  });

  it('says an untrusted signer’s name is its own claim', async () => {
    const text = await viewerText(1);
    expect(text).toContain('Signed by Someone');
    expect(text).not.toContain('AI-generated');
    expect(text).toContain('only what the signer says about itself');
  });

  it('says invalid credentials prove nothing, with C2PA’s codes', async () => {
    const text = await viewerText(2);
    expect(text).toContain('Present, but they do not check out');
    expect(text).toContain('assertion.dataHash.mismatch');
  });

  it('shows nothing for an image never checked', async () => {
    expect(await viewerText(4)).not.toContain('Content Credentials');
  });
});

describe('the "Has Content Credentials" filter', () => {
  it('lists only the images that carry credentials, whatever their verdict', async () => {
    const { user } = await gallery();
    await screen.findByAltText('Prompt number 4');
    await user.click(screen.getByRole('checkbox', { name: 'Has Content Credentials' }));
    const grid = screen.getByRole('grid', { name: 'Images' });
    await within(grid).findByAltText('Prompt number 2');
    expect(within(grid).queryByAltText('Prompt number 3')).toBeNull();
    expect(within(grid).queryByAltText('Prompt number 4')).toBeNull();
    expect(
      within(grid)
        .getAllByRole('img')
        .map((img) => img.getAttribute('alt'))
        .sort(),
    ).toEqual(['Prompt number 0', 'Prompt number 1', 'Prompt number 2']);
  });
});
