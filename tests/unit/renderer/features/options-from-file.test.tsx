/**
 * "Options from a file…" in the window, over the real main wiring, for the seed's own service
 * (which publishes no options): main's own open dialog picks the file (the page never names a
 * path), main reads and checks it as a hostile schema and keeps its options, and the form shows
 * them without a restart; a file that cannot be used is main's sentence under the button and no
 * option appears; a cancelled dialog changes nothing. Settings offers the same, on the same
 * channel, and "Use none" to forget them, in the reader's language.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { applyLocale } from '../../../../renderer/i18n';
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

/** Settings over the real wiring; its group of the own service's model options. */
async function openSettings() {
  const app = await startWiredApp();
  act(() => useAppStore.getState().setView('settings'));
  await screen.findByRole('heading', { level: 1 });
  const group = () => screen.getByRole('group', { name: /Model options|Modelloptionen/ });
  return { ...app, group };
}

describe('Model options in Settings', () => {
  it('keeps a file’s options for a model of the own service, then none, over the form’s channel', async () => {
    const { user, main, group } = await openSettings();
    await user.type(within(group()).getByRole('textbox', { name: 'Model' }), MODEL);
    const status = () => within(group()).getByRole('status').textContent;
    expect(status()).toBe(`No options for ${MODEL}: only the prompt, size and quality are sent.`);
    expect(within(group()).getByRole('button', { name: 'Use none' })).toHaveProperty(
      'disabled',
      true,
    );
    const file = join(main.dir, 'house-options.json');
    const schema = {
      properties: {
        style: { enum: ['vivid', 'natural'] },
        strength: { type: 'number', minimum: 0, maximum: 1 },
      },
    };
    await writeFile(file, JSON.stringify(schema));
    main.env['PICTOR_E2E_OPEN_OPTIONS'] = file;
    await user.click(within(group()).getByRole('button', { name: 'Options from a file…' }));
    await waitFor(() =>
      expect(status()).toBe(`Options from a file for ${MODEL}: style, strength.`),
    );
    expect(main.callsTo('models:fromFile')).toEqual([{ provider: 'pictor', model: MODEL }]);
    await user.click(within(group()).getByRole('button', { name: 'Use none' }));
    await waitFor(() => expect(status()).toMatch(/^No options for /));
    expect(main.callsTo('models:forget')).toEqual([{ provider: 'pictor', model: MODEL }]);
    expect(main.runtime.core.paramSchemas.kept()).toEqual([]);
  });

  it('says in German why a crafted file is refused, keeping none', async () => {
    const { user, main, group } = await openSettings();
    await act(() => applyLocale('de'));
    try {
      await user.type(within(group()).getByRole('textbox', { name: 'Modell' }), MODEL);
      const file = join(main.dir, 'loop.json');
      const loop = {
        properties: { a: { $ref: '#/components/schemas/A' } },
        components: { schemas: { A: { $ref: '#/components/schemas/A' } } },
      };
      await writeFile(file, JSON.stringify(loop));
      main.env['PICTOR_E2E_OPEN_OPTIONS'] = file;
      await user.click(within(group()).getByRole('button', { name: 'Optionen aus einer Datei…' }));
      const alert = await within(group()).findByRole('alert');
      expect(alert.textContent).toMatch(
        /^Die Datei enthält keine Optionen, die Pictor verwenden kann/,
      );
      expect(within(group()).getByRole('status').textContent).toBe(
        `Keine Optionen für ${MODEL}: Nur Prompt, Größe und Qualität werden gesendet.`,
      );
      expect(main.runtime.core.paramSchemas.kept()).toEqual([]);
    } finally {
      await act(() => applyLocale('en'));
    }
  });
});
