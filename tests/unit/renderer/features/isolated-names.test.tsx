/**
 * Names from a file or a service are isolated where the window shows them: the signer and the
 * generator in the Content Credentials sentences (task details; the image viewer:
 * gallery/viewer-names.test.tsx), the models asked for and reported (task details, a task's row,
 * the Costs list), each in its own `<bdi>`. (The service's address is no longer in the details'
 * text: they name the service, the address is on hover, features/task-details-service.test.tsx.) A name in a right-to-left script
 * then keeps its order inside an English sentence, and nothing in one can turn the rest of the
 * line around. (Such an override never reaches the page: the contract's schemas clean the names
 * on the way, shown-name.ts; the second case shows it.)
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ContentCredentials } from '../../../../shared/domain/content-credentials';
import type { WiredApi } from '../../../support/wired-api';
import { makeImage } from '../../../support/task-records';
import { clickScreen, drawnHeading, seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';
import { isolated, sentenceAround } from '../../../support/isolated-text';

/** "OpenAI" in Arabic script, and the certificate that reads "OpenAI" backwards. */
/** Main's own history and output checks (tests/support/wired-api.ts), one runtime for the file. */
const fileMain = sharedWiredMain();

const SIGNER = 'أوبن إيه آي';
const OVERRIDE = '\u202eIAnepO';
const GENERATOR = 'מחולל 2.0';
const ASKED = 'מודל-תמונה 1';
const REPORTED = 'نموذج-1';
const ENDPOINT = 'https://مثال.example';
const CREDENTIALS: ContentCredentials = {
  state: 'valid',
  signer: SIGNER,
  generator: GENERATOR,
  trusted: true,
  aiGenerated: true,
};

function seedTask(wired: WiredApi) {
  seedHistory(wired, 1, () => ({
    status: 'completed',
    endpoint: ENDPOINT,
    request: { prompt: 'A lighthouse', model: ASKED },
    reportedModel: REPORTED,
    images: [makeImage(0, { contentCredentials: CREDENTIALS })],
  }));
}

describe('names in the task list and its details', () => {
  it('isolates the signer, the generator and both models', async () => {
    const { user } = await startWiredApp({
      main: fileMain,
      prepare: seedTask,
    });
    const row = screen.getAllByRole('article')[0]!;
    // The row's parameters line: the model asked for, isolated between the service and the rest.
    expect(isolated(row)).toContain(ASKED);
    await user.click(within(row).getByRole('button', { name: 'Details' }));
    const details = screen.getByRole('dialog', { name: 'Task details' });
    expect(isolated(details)).toEqual(expect.arrayContaining([SIGNER, GENERATOR, ASKED, REPORTED]));
    expect(sentenceAround(details, GENERATOR)).toContain(`Made with ⟨${GENERATOR}⟩.`);
    const headline = details.querySelector('.credentials__headline')!;
    expect(sentenceAround(headline, SIGNER)).toBe(`Signed by ⟨${SIGNER}⟩`);
    const meaning = details.querySelector('.credentials__meaning')!;
    expect(sentenceAround(meaning, SIGNER)).toContain(
      `exactly as ⟨${SIGNER}⟩ signed it, and ⟨${SIGNER}⟩ is on the list`,
    );
  });

  it('shows a signer that carried an override cleaned, and isolated', async () => {
    const { user } = await startWiredApp({
      main: fileMain,
      prepare: (wired) =>
        void seedHistory(wired, 1, () => ({
          status: 'completed',
          images: [makeImage(0, { contentCredentials: { ...CREDENTIALS, signer: OVERRIDE } })],
        })),
    });
    const row = screen.getAllByRole('article')[0]!;
    await user.click(within(row).getByRole('button', { name: 'Details' }));
    const headline = screen
      .getByRole('dialog', { name: 'Task details' })
      .querySelector('.credentials__headline')!;
    // The record reached the page through the contract's schema, which took the override out.
    expect(sentenceAround(headline, 'IAnepO')).toBe('Signed by ⟨IAnepO⟩');
    expect(headline.textContent).not.toContain('\u202e');
  });
});

describe('names in the Costs list', () => {
  it('isolates each task’s model', async () => {
    const { user } = await startWiredApp({
      main: fileMain,
      prepare: (wired) =>
        void seedHistory(wired, 1, () => ({
          status: 'completed',
          createdAt: Date.now(),
          request: { prompt: 'p', model: ASKED },
          cost: { source: 'reported', micros: 40_000, unit: 'USD', field: 'usage.cost' },
        })),
    });
    await clickScreen(user, /^Costs/);
    await drawnHeading(2, 'Totals');
    const list = document.querySelector('.costs-table')!;
    expect(isolated(list)).toEqual([ASKED]);
  });
});
