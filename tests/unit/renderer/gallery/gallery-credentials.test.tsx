/**
 * Content Credentials in the window lead with their verdict, as Content Credentials tools do: the
 * viewer says first whether the signer is on Pictor's trust list (a check mark and the name), an
 * unverified signer (a caution mark, the name quoted as the signer's own claim), credentials that
 * were tampered with (a warning; C2PA's codes behind Details, never in the sentence), unreadable
 * or none, each in its own style. Tiles that carry credentials show a small CR mark whose verdict
 * is in the tile's accessible name; in Arabic too. The "Has Content Credentials" filter lists only
 * such images.
 */
import { act, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContentCredentials } from '../../../../shared/domain/content-credentials';
import { CredentialsSummary } from '../../../../renderer/components/content-credentials';
import { applyLocale } from '../../../../renderer/i18n';
import { makeImage } from '../../../support/task-records';
import { seriousViolations } from './gallery-harness';
import { seedGallery, wiredGallery } from './gallery-wired';

/** Main's own handlers and history (tests/support/wired-api.ts), one runtime for the file. */
const renderWired = wiredGallery();

const VERDICTS: Array<ContentCredentials | undefined> = [
  { state: 'valid', signer: 'OpenAI', generator: 'ChatGPT 1.0', trusted: true, aiGenerated: true },
  { state: 'valid', signer: 'Probe Service', trusted: false, aiGenerated: true },
  {
    state: 'invalid',
    signer: 'Probe Service',
    codes: ['signingCredential.untrusted', 'assertion.dataHash.mismatch'],
  },
  { state: 'none' },
  undefined,
  { state: 'unreadable' },
];

afterEach(async () => {
  await act(() => applyLocale('en'));
});

async function gallery() {
  return renderWired({
    prepare: (m) =>
      void seedGallery(m, VERDICTS.length, (n) => ({
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

/** The viewer's credentials block for image `n`, or null when it shows none. */
async function verdictOf(n: number): Promise<HTMLElement | null> {
  const { user } = await gallery();
  await user.click(screen.getByAltText(`Prompt number ${String(n)}`));
  const dialog = await screen.findByRole('dialog', { name: 'Image viewer' });
  return dialog.querySelector<HTMLElement>('.credentials');
}

const headline = (block: HTMLElement): string =>
  block.querySelector('.credentials__headline')?.textContent ?? '';
const mark = (block: HTMLElement): string | null =>
  block.querySelector('.credentials__verdict > svg')?.getAttribute('class') ?? null;

describe('the viewer leads with the verdict', () => {
  it('a trusted signer: a check mark and the name, then AI-generated and what it means', async () => {
    const block = (await verdictOf(0))!;
    expect(block.dataset['verdict']).toBe('trusted');
    expect(mark(block)).toContain('credentials__icon');
    expect(headline(block)).toBe('Signed by OpenAI');
    expect(block.querySelector('.credentials__headline bdi')?.textContent).toBe('OpenAI');
    expect(block.querySelector('.credentials__tag')?.textContent).toBe('AI-generated');
    expect(block.textContent).toContain('OpenAI is on the list of signers Pictor trusts');
    expect(block.textContent).toContain('Made with ChatGPT 1.0.');
  });

  it('an unknown signer reads as unverified first, its name only its own claim', async () => {
    const block = (await verdictOf(1))!;
    expect(block.dataset['verdict']).toBe('unverified');
    expect(headline(block)).toBe('Unverified signer: “Probe Service” (not on Pictor’s trust list)');
    // Never the bold "Signed by …, AI-generated" of an unverified claim.
    expect(block.textContent).not.toContain('Signed by');
    expect(block.textContent).toContain('only what the signer says about itself');
  });

  it('tampered credentials warn in words, their codes behind a closed Details', async () => {
    const block = (await verdictOf(2))!;
    expect(block.dataset['verdict']).toBe('tampered');
    expect(headline(block)).toBe('Tampered: the credentials do not check out');
    const sentences = [...block.querySelectorAll('.credentials__verdict, .credentials__meaning')];
    expect(sentences).toHaveLength(2);
    // No code in the sentences: they are words; the codes wait behind Details.
    for (const sentence of sentences) expect(sentence.textContent).not.toMatch(/[a-z]\.[a-z]/i);
    const details = block.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(within(details).getByText('Details').tagName).toBe('SUMMARY');
    expect([...details.querySelectorAll('code')].map((code) => code.textContent)).toEqual([
      'signingCredential.untrusted',
      'assertion.dataHash.mismatch',
    ]);
    expect(details.textContent).toContain('The credentials name Probe Service as their signer.');
  });

  it('gives each verdict its own look: five styles, a mark for each but none', () => {
    const kinds = [0, 1, 2, 3, 5].map((n) => {
      const { container } = render(<CredentialsSummary credentials={VERDICTS[n]} />);
      const block = container.querySelector<HTMLElement>('.credentials')!;
      return {
        style: block.className,
        mark: mark(block) && block.querySelector('.credentials__verdict path')!.getAttribute('d'),
      };
    });
    expect(new Set(kinds.map((kind) => kind.style)).size).toBe(5);
    const marks = kinds.map((kind) => kind.mark).filter((d) => d !== null);
    expect(marks).toHaveLength(4);
    expect(new Set(marks).size).toBe(4);
  });

  it('shows nothing for an image never checked', async () => {
    expect(await verdictOf(4)).toBeNull();
  });
});

describe('the tiles’ Content Credentials mark', () => {
  it('marks the tiles that carry credentials, the verdict in the tile’s name', async () => {
    await gallery();
    const grid = screen.getByRole('grid', { name: 'Images' });
    await within(grid).findByAltText('Prompt number 5');
    const cell = (n: number) =>
      within(grid)
        .getByAltText(`Prompt number ${String(n)}`)
        .closest<HTMLElement>('[role="gridcell"]')!;
    expect(within(cell(0)).getByRole('img', { name: /Content Credentials/ })).toBeTruthy();
    expect(screen.getByRole('gridcell', { name: /Prompt number 0.*trusted signer/ })).toBe(cell(0));
    expect(screen.getByRole('gridcell', { name: /Prompt number 1.*unverified signer/ })).toBe(
      cell(1),
    );
    expect(screen.getByRole('gridcell', { name: /Prompt number 2.*tampered/ })).toBe(cell(2));
    expect(screen.getByRole('gridcell', { name: /Prompt number 5.*could not be read/ })).toBe(
      cell(5),
    );
    // No credentials, or never checked: no mark.
    expect(cell(3).querySelector('.credentials-mark')).toBeNull();
    expect(cell(4).querySelector('.credentials-mark')).toBeNull();
    expect(await seriousViolations()).toEqual([]);
  });

  it('says the verdict in Arabic, in the mark and in the viewer, the name isolated', async () => {
    await act(() => applyLocale('ar'));
    const { user } = await gallery();
    const grid = screen.getByRole('grid');
    await within(grid).findByAltText('Prompt number 1');
    expect(
      screen.getByRole('gridcell', {
        name: /Prompt number 1.*بيانات اعتماد المحتوى من موقّع لم يُتحقَّق منه/,
      }),
    ).toBeTruthy();
    await user.click(within(grid).getByAltText('Prompt number 1'));
    const block = (await screen.findByRole('dialog')).querySelector<HTMLElement>('.credentials')!;
    expect(headline(block)).toBe(
      'موقّع لم يُتحقَّق منه: «Probe Service» (ليس ضمن قائمة الثقة في Pictor)',
    );
    expect(block.querySelector('.credentials__headline bdi')?.textContent).toBe('Probe Service');
    expect(await seriousViolations()).toEqual([]);
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
        .filter((img) => img.tagName === 'IMG')
        .map((img) => img.getAttribute('alt'))
        .sort(),
    ).toEqual(['Prompt number 0', 'Prompt number 1', 'Prompt number 2', 'Prompt number 5']);
  });
});
