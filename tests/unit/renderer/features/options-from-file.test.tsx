/**
 * "Options from a file…" in the window, over the real main wiring, for the seed's own service
 * (which publishes no options): main's own open dialog picks the file (the page never names a
 * path), main reads and checks it as a hostile schema and keeps its options, and the form shows
 * them without a restart; a file that cannot be used is main's sentence under the button and no
 * option appears; a cancelled dialog changes nothing.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { startWiredApp } from '../render-wired-app';

const MODEL = 'house-model';

async function startOnOwnService() {
  const app = await startWiredApp();
  act(() => useAppStore.getState().composeSetDraft({ provider: 'pictor', model: MODEL }));
  return app;
}

const fromFile = () => screen.getByRole('button', { name: 'Options from a file…' });

describe('Options from a file…', () => {
  it('brings a file’s options into the form through main’s own dialog', async () => {
    const { user, main } = await startOnOwnService();
    // Cancelled: nothing asked of the file system, nothing said.
    await user.click(fromFile());
    await waitFor(() => expect(main.callsTo('models:fromFile')).toHaveLength(1));
    expect(screen.queryByRole('alert')).toBeNull();
    const file = join(main.dir, 'house-options.json');
    const schema = {
      type: 'object',
      properties: {
        style: { enum: ['vivid', 'natural'], default: 'vivid', title: 'Style' },
        strength: { type: 'number', minimum: 0, maximum: 1, title: 'Strength' },
      },
    };
    await writeFile(file, JSON.stringify(schema));
    main.env['PICTOR_E2E_OPEN_OPTIONS'] = file;
    await user.click(fromFile());
    await screen.findByRole('group', { name: 'Model options' });
    expect(await screen.findByLabelText('style')).toBeTruthy();
    expect(screen.getByLabelText('strength')).toBeTruthy();
    // The page named the provider and the model only; main kept the file's options.
    expect(main.callsTo('models:fromFile')).toEqual([
      { provider: 'pictor', model: MODEL },
      { provider: 'pictor', model: MODEL },
    ]);
    expect(main.runtime.core.paramSchemas.kept().map((kept) => kept.model)).toEqual([MODEL]);
  });

  it('says why a crafted file is refused, and shows no option', async () => {
    const { user, main } = await startOnOwnService();
    const file = join(main.dir, 'deep.json');
    const deep = `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`;
    await writeFile(file, `{"properties":{"steps":${deep}}}`);
    main.env['PICTOR_E2E_OPEN_OPTIONS'] = file;
    await user.click(fromFile());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'The file holds no options Pictor can use: give a JSON schema of at most 512 KB whose properties are choices, numbers, switches or text.',
    );
    expect(screen.queryByRole('group', { name: 'Model options' })).toBeNull();
    expect(main.runtime.core.paramSchemas.kept()).toEqual([]);
  });
});
