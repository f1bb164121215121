/** Task details say, per image, what its Content Credentials said when Pictor verified them. */
import { screen, within } from '@testing-library/react';
import { expect, it } from 'vitest';
import { makeImage } from '../../../support/task-records';
import { seedHistory, startWiredApp } from '../render-wired-app';

it('task details show each image’s Content Credentials and their meaning', async () => {
  // A record as the engine leaves it after checking each image's credentials, in main's history.
  const { user } = await startWiredApp({
    prepare: (main) =>
      void seedHistory(main, 1, () => ({
        status: 'completed',
        images: [
          makeImage(0, {
            contentCredentials: {
              state: 'valid',
              signer: 'Test Image Service',
              trusted: false,
              aiGenerated: true,
            },
          }),
          makeImage(1, { contentCredentials: { state: 'unreadable' } }),
          makeImage(2),
          makeImage(3, { contentCredentials: { state: 'unreadable', remote: true } }),
        ],
      })),
  });
  await user.click(
    within(screen.getAllByRole('article')[0]!).getByRole('button', { name: 'Details' }),
  );
  const details = screen.getByRole('dialog', { name: 'Task details' });
  const items = within(details)
    .getAllByRole('listitem')
    .map((item) => item.textContent ?? '');
  expect(items[0]).toContain(
    'Unverified signer: “Test Image Service” (not on Pictor’s trust list)',
  );
  expect(items[0]).not.toContain('Signed by');
  expect(items[0]).toContain('the name is only what the signer says about itself');
  expect(items[1]).toContain('Present, but they could not be read');
  expect(items[1]).toContain('could not read its credentials within its limits');
  expect(items[2]).not.toContain('Content Credentials');
  // A store kept online, named in the file: said so, not taken for a failure to read.
  expect(items[3]).toContain('its credentials are kept online, at an address the file names');
});
