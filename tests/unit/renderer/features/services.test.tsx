/**
 * Services in the window: Settings lists each service with its key, default model and address;
 * the compose form picks the service (a setting) and the model follows it; the task list and the
 * gallery name each task's service and filter by it. The key never comes back to the page.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeImage } from '../../../support/task-records';
import { useAppStore } from '../../../../renderer/store/app-store';
import { startApp, type StartedApp } from '../render-app';

const form = () => screen.getByRole('form', { name: 'New task' });

/** Stores `key` for the service named `name` in Settings; returns that service's section. */
async function storeKey(user: StartedApp['user'], name: string, key: string) {
  const section = screen.getByRole('region', { name });
  await user.type(within(section).getByLabelText(`${name} API key`), key);
  await user.click(within(section).getByRole('button', { name: 'Save key' }));
  await within(section).findByText(/A key is stored/);
  return section;
}

async function openSettings() {
  const app = await startApp();
  act(() => useAppStore.getState().setView('settings'));
  await screen.findByRole('heading', { name: 'Settings', level: 1 });
  return app;
}

describe('other services in Settings', () => {
  it('lists each service with its default model, its own address and its key state', async () => {
    await openSettings();
    const section = screen.getByRole('region', { name: 'Other image services' });
    for (const name of ['fal.ai', 'Replicate', 'Alibaba Cloud DashScope', 'Black Forest Labs']) {
      expect(within(section).getByRole('region', { name })).toBeTruthy();
    }
    const fal = within(section).getByRole('region', { name: 'fal.ai' });
    within(fal).getByText('Default model: fal-ai/flux/schnell');
    expect(within(fal).getByLabelText('Address')).toHaveProperty(
      'placeholder',
      'https://queue.fal.run',
    );
    // Nothing to test before a key is stored: a typed key is never sent to be tried.
    expect(within(fal).queryByRole('button', { name: 'Test connection' })).toBeNull();
    expect(within(fal).getByLabelText('fal.ai API key')).toHaveProperty('type', 'password');
  });

  it('shows the balance a key check read, in the locale’s figures, and when it was read', async () => {
    const { user, fake } = await openSettings();
    const bfl = await storeKey(user, 'Black Forest Labs', 'bfl-key-123456');
    fake.serviceConnection = {
      ok: true,
      outcome: 'accepted',
      message: 'The service at api.bfl.ai answered and accepted the key.',
      sentence: { key: 'error.service.testAccepted', params: { host: 'api.bfl.ai' } },
      detail: 'Credits: 1234.5',
      balance: { micros: 1_234_500_000, unit: 'credits', readAt: Date.UTC(2026, 10, 25, 11) },
    };
    await user.click(within(bfl).getByRole('button', { name: 'Test connection' }));
    await within(bfl).findByText(/^Balance: 1,234\.5 credits, read .*2026/);
    expect(within(bfl).queryByText('Credits: 1234.5')).toBeNull();
  });

  it('tests a stored key at the service’s address, and says what the service answered', async () => {
    const { user, fake } = await openSettings();
    const bfl = await storeKey(user, 'Black Forest Labs', 'bfl-key-123456');
    within(bfl).getByText(
      'Test connection asks https://api.bfl.ai whether it takes the saved key, without creating a task, so nothing is charged.',
    );
    fake.serviceConnection = {
      ok: true,
      outcome: 'accepted',
      message: 'The service at api.bfl.ai answered and accepted the key.',
      sentence: { key: 'error.service.testAccepted', params: { host: 'api.bfl.ai' } },
      detail: 'Credits: 42',
    };
    await user.click(within(bfl).getByRole('button', { name: 'Test connection' }));
    await within(bfl).findByText('The service at api.bfl.ai answered and accepted the key.');
    within(bfl).getByText('Credits: 42');
    expect(fake.callsTo('service:testService')).toEqual([{ provider: 'bfl' }]);
    expect(fake.callsTo('service:testConnection')).toEqual([]);

    fake.serviceConnection = {
      ok: false,
      outcome: 'key_refused',
      message:
        'The service at api.bfl.ai refused this key (403). Check that you copied the whole key and that it belongs to this service.',
      sentence: {
        key: 'error.service.testKeyRefused',
        params: { host: 'api.bfl.ai', status: '403' },
      },
      detail: 'HTTP 403 — Not authenticated',
    };
    await user.click(within(bfl).getByRole('button', { name: 'Test connection' }));
    await within(bfl).findByText(/refused this key \(403\)/);
    // Another service's section says nothing of it.
    const fal = screen.getByRole('region', { name: 'fal.ai' });
    expect(within(fal).queryByText(/refused this key/)).toBeNull();

    // An address of the user's own is tested from then on: the report about the other one goes.
    await user.type(within(bfl).getByLabelText('Address'), 'https://eu.api.bfl.ai');
    await user.click(within(bfl).getByRole('button', { name: 'Save' }));
    await within(bfl).findByText(/^Test connection asks https:\/\/eu\.api\.bfl\.ai whether/);
    expect(within(bfl).queryByText(/refused this key/)).toBeNull();
  });

  it('stores a key for one service, bound to its address, and removes it again', async () => {
    const { user, fake } = await openSettings();
    const fal = await storeKey(user, 'fal.ai', 'fal-secret-key-123');
    within(fal).getByText(
      'Sent only to https://queue.fal.run. Pictor asks you before it goes anywhere else.',
    );
    expect(fake.callsTo('keys:set')).toEqual([
      { provider: 'fal', key: 'fal-secret-key-123', allowWeakStorage: false },
    ]);
    // The check is main's, made in that one request: the page asks nothing itself.
    expect(fake.callsTo('service:testConnection')).toEqual([]);
    expect(fake.callsTo('service:testService')).toEqual([]);
    within(fal).getByText(/^The service accepted this key when it was checked/);
    // Today's contract's key is untouched.
    expect(
      within(screen.getByRole('region', { name: 'API key' })).queryByText(/A key is stored/),
    ).toBeNull();
    expect(JSON.stringify(useAppStore.getState())).not.toContain('fal-secret-key-123');

    await user.click(within(fal).getByRole('button', { name: 'Remove key' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove key' }),
    );
    await within(fal).findByLabelText('fal.ai API key');
    expect(fake.callsTo('keys:clear')).toEqual([{ provider: 'fal' }]);
  });

  it('saves an address of the user’s own, and shows main’s refusal under it', async () => {
    const { user, fake } = await openSettings();
    const bfl = screen.getByRole('region', { name: 'Black Forest Labs' });
    await user.type(within(bfl).getByLabelText('Address'), 'https://proxy.example.com/bfl');
    await user.click(within(bfl).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(fake.callsTo('settings:update').at(-1)).toEqual({
        serviceBaseUrls: { bfl: 'https://proxy.example.com/bfl' },
      }),
    );
    fake.fail('settings:update', { message: 'Two services cannot share one address.' });
    const replicate = screen.getByRole('region', { name: 'Replicate' });
    await user.type(within(replicate).getByLabelText('Address'), 'https://proxy.example.com/bfl');
    await user.click(within(replicate).getByRole('button', { name: 'Save' }));
    await within(replicate).findByText('Two services cannot share one address.');
    expect(within(bfl).queryByText('Two services cannot share one address.')).toBeNull();
  });
});

describe.each([
  ['fal', 'fal.ai'],
  ['replicate', 'Replicate'],
  ['dashscope', 'Alibaba Cloud DashScope'],
  ['bfl', 'Black Forest Labs'],
] as const)('Save of a %s key: checked as every key is', (provider, name) => {
  const save = async (user: StartedApp['user'], key: string) => {
    const section = screen.getByRole('region', { name });
    await user.type(within(section).getByLabelText(`${name} API key`), key);
    await user.click(within(section).getByRole('button', { name: 'Save key' }));
    return section;
  };

  it('accepted: stored, with the tick', async () => {
    const { user, fake } = await openSettings();
    const section = await save(user, 'key-accepted-123');
    await within(section).findByText(/^The service accepted this key when it was checked/);
    expect(section.querySelector('.key-stored__icon')).not.toBeNull();
    expect(fake.callsTo('keys:set')).toEqual([
      { provider, key: 'key-accepted-123', allowWeakStorage: false },
    ]);
  });

  it('refused: not stored, the reason beside the field', async () => {
    const { user, fake } = await openSettings();
    fake.keyCheck = {
      ok: false,
      outcome: 'key_refused',
      message: 'The service at the address refused this key (401).',
    };
    const section = await save(user, 'key-refused-123');
    const alert = await within(section).findByRole('alert');
    expect(alert.textContent).toContain(
      'The key was not saved. The service at the address refused',
    );
    expect(within(section).getByLabelText(`${name} API key`).getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(useAppStore.getState().serviceKeys?.[provider]?.state).toBe('not_set');
  });

  it('unreachable: asks “save without checking?”, then stores it “not checked yet”', async () => {
    const { user, fake } = await openSettings();
    fake.keyCheck = { ok: false, outcome: 'unreachable', message: 'Nothing answers there.' };
    const section = await save(user, 'key-offline-123');
    const ask = await screen.findByRole('alertdialog', {
      name: 'Save the key without checking it?',
    });
    expect(ask.textContent).toContain('Nothing answers there.');
    await user.click(within(ask).getByRole('button', { name: 'Save anyway' }));
    await within(section).findByText(
      'Not checked yet: Test connection asks the service whether it takes this key.',
    );
    expect(section.querySelector('.key-stored__icon')).toBeNull();
    expect(fake.callsTo('keys:set').at(-1)).toEqual({
      provider,
      key: 'key-offline-123',
      allowWeakStorage: false,
      skipCheck: true,
    });
  });
});

describe('the service in the compose form', () => {
  it('picks the service, remembers it in settings, and the model list follows it', async () => {
    const { user, fake } = await startApp();
    const service = within(form()).getByRole('combobox', { name: 'Service' });
    expect(service).toHaveProperty('value', 'pictor');
    within(service).getByRole('option', { name: 'Image task service' });
    await user.selectOptions(service, 'fal');
    await waitFor(() => expect(fake.settings.provider).toBe('fal'));
    expect(fake.callsTo('settings:update')).toContainEqual({ provider: 'fal' });
    const model = within(form()).getByRole('combobox', { name: 'Model' });
    await waitFor(() => expect(model).toHaveProperty('value', 'fal-ai/flux/schnell'));
    const listId = model.getAttribute('list') ?? '';
    const offered = [...(document.getElementById(listId)?.querySelectorAll('option') ?? [])];
    expect(offered.map((option) => option.value)).toEqual([
      'fal-ai/flux/schnell',
      'fal-ai/flux/dev',
      'fal-ai/flux-pro/v1.1',
    ]);
    // Free text stays allowed: a typed model is kept when the service changes again.
    await user.clear(model);
    await user.type(model, 'fal-ai/my-own-model');
    await user.selectOptions(service, 'bfl');
    await waitFor(() => expect(fake.settings.provider).toBe('bfl'));
    expect(model).toHaveProperty('value', 'fal-ai/my-own-model');
  });

  it('sends the chosen service with the submit, never waiting for the setting to be saved', async () => {
    const { user, fake } = await startApp();
    // The setting that remembers the choice is never answered: the submit does not need it.
    fake.handle('settings:update', () => new Promise(() => undefined));
    await user.selectOptions(
      within(form()).getByRole('combobox', { name: 'Service' }),
      'replicate',
    );
    await user.type(within(form()).getByRole('textbox', { name: 'Prompt' }), 'a heron{Enter}');
    await waitFor(() => expect(fake.callsTo('tasks:submit')).toHaveLength(1));
    expect(fake.callsTo('tasks:submit')[0]).toMatchObject({
      request: { model: 'black-forest-labs/flux-schnell' },
      target: { provider: 'replicate', endpoint: 'https://api.replicate.com' },
    });
    expect(fake.settings.provider).toBe('pictor');
  });
});

describe('each task’s service in the history and the gallery', () => {
  it('names the service on each row and filters the list by it', async () => {
    const { user, fake } = await startApp({
      prepare: (f) => f.seedTasks(3, (index) => (index === 1 ? { provider: 'fal' } : {})),
    });
    const rows = await screen.findAllByRole('article');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByText(/^fal\.ai · /)).toBeTruthy();
    expect(within(rows[0]!).getByText(/^Image task service · /)).toBeTruthy();
    // The service filter is one of the filter toolbar's controls (no Tab stop of its own).
    const toolbar = within(screen.getByRole('toolbar', { name: 'Filter by status' }));
    await user.selectOptions(toolbar.getByRole('combobox', { name: 'Service' }), 'fal');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(1));
    expect(fake.callsTo('tasks:list').at(-1)).toMatchObject({ provider: 'fal' });
    // Existing records are today's contract's.
    await user.selectOptions(toolbar.getByRole('combobox', { name: 'Service' }), 'pictor');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
  });

  it('filters the gallery by service, each image keeping its task’s service', async () => {
    const { user, fake } = await startApp({
      prepare: (f) =>
        f.seedTasks(3, (index) => ({
          images: [makeImage(0, { file: `g/${String(index)}.png` })],
          ...(index === 0 ? { provider: 'bfl' as const } : {}),
        })),
    });
    await user.click(screen.getByRole('button', { name: 'Gallery' }));
    const filters = await screen.findByRole('search', { name: /filter/i });
    const toolbar = within(within(filters).getByRole('toolbar', { name: 'Filter the gallery' }));
    await user.selectOptions(toolbar.getByRole('combobox', { name: 'Service' }), 'bfl');
    await waitFor(() =>
      expect(fake.callsTo('gallery:list').at(-1)).toMatchObject({ provider: 'bfl' }),
    );
    await waitFor(() => expect(useAppStore.getState().galleryItems).toHaveLength(1));
    expect(useAppStore.getState().galleryItems[0]?.provider).toBe('bfl');
  });
});
