/**
 * Task details name the service of an imported record (its address, as the imported file gave
 * it, on hover) and say where it came from: anyone could have written that address in an archive
 * or folder, so it must not read as one the user entered in Pictor.
 */
import { screen, within } from '@testing-library/react';
import { expect, it } from 'vitest';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

const fileMain = sharedWiredMain();

const LABEL = 'From an imported library, not entered in Pictor';

async function detailsOf(fields: { imported?: boolean; endpoint: string }) {
  // The record in main's real history, as an import or a submit wrote it.
  const { user } = await startWiredApp({
    main: fileMain,
    prepare: (main) => void seedHistory(main, 1, () => ({ status: 'completed', ...fields })),
  });
  await user.click(
    within(screen.getAllByRole('article')[0]!).getByRole('button', { name: 'Details' }),
  );
  const details = screen.getByRole('dialog', { name: 'Task details' });
  const service = within(details).getByText('Service').nextElementSibling;
  const address = service?.querySelector('[title]')?.getAttribute('title') ?? '';
  return `${service?.textContent ?? ''} ${address}`;
}

it('labels the service of an imported record as coming from an imported library', async () => {
  const service = await detailsOf({ imported: true, endpoint: 'https://elsewhere.example' });
  expect(service).toContain('https://elsewhere.example');
  expect(service).toContain(LABEL);
});

it('says nothing of the kind for a task sent from this app', async () => {
  const service = await detailsOf({ endpoint: 'https://api.example' });
  expect(service).toContain('https://api.example');
  expect(service).not.toContain(LABEL);
});
