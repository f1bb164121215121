/**
 * Services in the window: Settings lists each service with its key, default model and address;
 * the compose form picks the service (a setting) and the model follows it; the task list and the
 * gallery name each task's service and filter by it. The key never comes back to the page.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeImage } from '../../../support/task-records';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectGalleryItems } from '../../../../renderer/store/record-selectors';
import type { UserPrompts } from '../../../../electron/ports/user-prompts';
import type { WiredApi } from '../../../support/wired-api';
import { connectService, SERVICE_KEY, unusedAddress } from '../dialect-services';
import {
  seedHistory,
  showSettings,
  startWiredApp,
  type WiredApp,
  type WiredAppOptions,
} from '../render-wired-app';
import { pasteInto } from '../paste-into';

const form = () => screen.getByRole('form', { name: 'New task' });
const SHARED_ADDRESS =
  'Replicate and Black Forest Labs would both be at proxy.example.com/bfl. Two services cannot share one address, as Pictor would not know whose key goes there: give one of them another address.';

/** The user carries a stored key to a new address when main asks. */
const carryKey: UserPrompts = { confirmKeyOrigin: () => Promise.resolve('carry') };

/** Black Forest Labs at a BFL dialect on loopback whose account holds `credits`; no key yet. */
function connectBfl(main: WiredApi, { credits }: { credits: number }) {
  return connectService(main, 'bfl', {
    key: null,
    service: { accounts: [{ account: 'user', key: SERVICE_KEY, credits }] },
  });
}

/** `provider` at a dialect service on loopback, no key stored yet. */
function withService(provider: 'fal' | 'replicate' | 'dashscope' | 'bfl') {
  return (main: WiredApi) => connectService(main, provider, { key: null }).then(() => undefined);
}

/** Stores `key` for the service named `name` in Settings; returns that service's section. */
async function storeKey(user: WiredApp['user'], name: string, key: string) {
  const section = screen.getByRole('region', { name });
  await pasteInto(user, within(section).getByLabelText(`${name} API key`), key);
  await user.click(within(section).getByRole('button', { name: 'Save key' }));
  await within(section).findByText(/A key is stored/);
  return section;
}

/** Settings over the real wiring; `prepare` points services at dialects on loopback. */
async function openSettings(options: WiredAppOptions = {}) {
  const app = await startWiredApp(options);
  await showSettings();
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
    // A BFL dialect whose account holds 1234 credits: its key check reads the balance.
    const { user } = await openSettings({
      prepare: (main) => connectBfl(main, { credits: 1234 }).then(() => undefined),
    });
    const bfl = await storeKey(user, 'Black Forest Labs', SERVICE_KEY);
    await user.click(within(bfl).getByRole('button', { name: 'Test connection' }));
    const year = String(new Date().getFullYear());
    await within(bfl).findByText(new RegExp(`^Balance: 1,234 credits, read .*${year}`));
    expect(within(bfl).queryByText('Credits: 1234')).toBeNull();
  });

  it('tests a stored key at the service’s address, and says what the service answered', async () => {
    // The user's own BFL service; asked about the key when its address changes, they carry it.
    let service = { url: '', revokeKey: (key: string): void => void key };
    const { user, main } = await openSettings({
      runtime: { prompts: carryKey },
      prepare: async (main) => void (service = await connectBfl(main, { credits: 42 })),
    });
    const host = new URL(service.url).host;
    const bfl = await storeKey(user, 'Black Forest Labs', SERVICE_KEY);
    within(bfl).getByText(
      `Test connection asks ${service.url} whether it takes the saved key, without creating a task, so nothing is charged.`,
    );
    await user.click(within(bfl).getByRole('button', { name: 'Test connection' }));
    await within(bfl).findByText(`The service at ${host} answered and accepted the key.`);
    within(bfl).getByText(/^Balance: 42 credits/);
    expect(main.callsTo('service:testService')).toEqual([{ provider: 'bfl' }]);
    expect(main.callsTo('service:testConnection')).toEqual([]);

    // The service stops taking the key (revoked there): the next test says so.
    service.revokeKey(SERVICE_KEY);
    await user.click(within(bfl).getByRole('button', { name: 'Test connection' }));
    await within(bfl).findByText(new RegExp(`^The service at ${host} refused this key \\(403\\)`));
    // Another service's section says nothing of it.
    const fal = screen.getByRole('region', { name: 'fal.ai' });
    expect(within(fal).queryByText(/refused this key/)).toBeNull();

    // An address of the user's own is tested from then on: the report about the other one goes.
    await user.clear(within(bfl).getByLabelText('Address'));
    await pasteInto(user, within(bfl).getByLabelText('Address'), 'https://eu.api.bfl.ai');
    await user.click(within(bfl).getByRole('button', { name: 'Save' }));
    await within(bfl).findByText(/^Test connection asks https:\/\/eu\.api\.bfl\.ai whether/);
    expect(within(bfl).queryByText(/refused this key/)).toBeNull();
  });

  it('stores a key for one service, bound to its address, and removes it again', async () => {
    let address = '';
    const { user, main } = await openSettings({
      prepare: async (main) =>
        void ({ url: address } = await connectService(main, 'fal', { key: null })),
    });
    const fal = await storeKey(user, 'fal.ai', SERVICE_KEY);
    within(fal).getByText(`Sent only to ${address}. Pictor asks you before it goes anywhere else.`);
    expect(main.callsTo('keys:set')).toEqual([
      { provider: 'fal', key: SERVICE_KEY, allowWeakStorage: false },
    ]);
    // The check is main's, made in that one request: the page asks nothing itself.
    expect(main.callsTo('service:testConnection')).toEqual([]);
    expect(main.callsTo('service:testService')).toEqual([]);
    within(fal).getByText(/^The service accepted this key when it was checked/);
    // Today's contract's key is untouched.
    expect(
      within(screen.getByRole('region', { name: 'API key' })).queryByText(/A key is stored/),
    ).toBeNull();
    expect(JSON.stringify(useAppStore.getState())).not.toContain(SERVICE_KEY);

    await user.click(within(fal).getByRole('button', { name: 'Remove key' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove key' }),
    );
    await within(fal).findByLabelText('fal.ai API key');
    expect(main.callsTo('keys:clear')).toEqual([{ provider: 'fal' }]);
    expect(main.runtime.keys.vault('fal').status().state).toBe('not_set');
  });

  it('saves an address of the user’s own, and shows main’s refusal under it', async () => {
    const { user, main } = await openSettings();
    const bfl = screen.getByRole('region', { name: 'Black Forest Labs' });
    await pasteInto(user, within(bfl).getByLabelText('Address'), 'https://proxy.example.com/bfl');
    await user.click(within(bfl).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(main.callsTo('settings:update').at(-1)).toEqual({
        serviceBaseUrls: { bfl: 'https://proxy.example.com/bfl' },
      }),
    );
    // Main's own refusal: two services at one address.
    const replicate = screen.getByRole('region', { name: 'Replicate' });
    await pasteInto(
      user,
      within(replicate).getByLabelText('Address'),
      'https://proxy.example.com/bfl',
    );
    await user.click(within(replicate).getByRole('button', { name: 'Save' }));
    await within(replicate).findByText(SHARED_ADDRESS);
    expect(within(bfl).queryByText(SHARED_ADDRESS)).toBeNull();
    expect(main.runtime.settings.get().serviceBaseUrls).toEqual({
      bfl: 'https://proxy.example.com/bfl',
    });
  });
});

describe.each([
  ['fal', 'fal.ai'],
  ['replicate', 'Replicate'],
  ['dashscope', 'Alibaba Cloud DashScope'],
  ['bfl', 'Black Forest Labs'],
] as const)('Save of a %s key: checked as every key is', (provider, name) => {
  const save = async (user: WiredApp['user'], key: string) => {
    const section = screen.getByRole('region', { name });
    await pasteInto(user, within(section).getByLabelText(`${name} API key`), key);
    await user.click(within(section).getByRole('button', { name: 'Save key' }));
    return section;
  };

  it('accepted: stored, with the tick', async () => {
    const { user, main } = await openSettings({ prepare: withService(provider) });
    const section = await save(user, SERVICE_KEY);
    await within(section).findByText(/^The service accepted this key when it was checked/);
    expect(section.querySelector('.key-stored__icon')).not.toBeNull();
    expect(main.callsTo('keys:set')).toEqual([
      { provider, key: SERVICE_KEY, allowWeakStorage: false },
    ]);
    expect(main.runtime.keys.vault(provider).status().check?.outcome).toBe('accepted');
  });

  it('refused: not stored, the reason beside the field', async () => {
    // The service knows another key.
    const { user, main } = await openSettings({ prepare: withService(provider) });
    const section = await save(user, 'key-refused-123');
    const alert = await within(section).findByRole('alert');
    expect(alert.textContent).toMatch(
      /^The key was not saved\. The service at 127\.0\.0\.1:\d+ refused this key \(40[13]\)/,
    );
    expect(within(section).getByLabelText(`${name} API key`).getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(useAppStore.getState().serviceKeys?.[provider]?.state).toBe('not_set');
    expect(main.runtime.keys.vault(provider).status().state).toBe('not_set');
  });

  it('unreachable: asks “save without checking?”, then stores it “not checked yet”', async () => {
    // Nothing listens at the service's address.
    const nowhere = await unusedAddress();
    const { user, main } = await openSettings({
      prepare: (main) =>
        main.runtime
          .updateSettings({ serviceBaseUrls: { [provider]: nowhere } })
          .then(() => undefined),
    });
    const section = await save(user, 'key-offline-123');
    const ask = await screen.findByRole('alertdialog', {
      name: 'Save the key without checking it?',
    });
    expect(ask.textContent).toContain(new URL(nowhere).host);
    await user.click(within(ask).getByRole('button', { name: 'Save anyway' }));
    await within(section).findByText(
      'Not checked yet: Test connection asks the service whether it takes this key.',
    );
    expect(section.querySelector('.key-stored__icon')).toBeNull();
    expect(main.runtime.keys.vault(provider).status().state).toBe('ready');
    expect(main.callsTo('keys:set').at(-1)).toEqual({
      provider,
      key: 'key-offline-123',
      allowWeakStorage: false,
      skipCheck: true,
    });
  });
});

describe('the service in the compose form', () => {
  it('picks the service, remembers it in settings, and the model list follows it', async () => {
    const { user, main } = await startWiredApp();
    const service = within(form()).getByRole('combobox', { name: 'Service' });
    expect(service).toHaveProperty('value', 'pictor');
    within(service).getByRole('option', {
      name: 'Image task service (demo)',
    });
    await user.selectOptions(service, 'fal');
    await waitFor(() => expect(main.runtime.settings.get().provider).toBe('fal'));
    expect(main.callsTo('settings:update')).toContainEqual({ provider: 'fal' });
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
    await waitFor(() => expect(main.runtime.settings.get().provider).toBe('bfl'));
    expect(model).toHaveProperty('value', 'fal-ai/my-own-model');
  });

  // Fault: the setting that remembers the service is held in the contract's interceptor and never
  // reaches main; so is the submit (main would go to Replicate's own address).
  it('sends the chosen service with the submit, never waiting for the setting to be saved', async () => {
    const { user, main } = await startWiredApp();
    const { request } = main.intercept;
    const setting = request['settings:update'].hold();
    const submit = request['tasks:submit'].hold();
    await user.selectOptions(
      within(form()).getByRole('combobox', { name: 'Service' }),
      'replicate',
    );
    await user.type(within(form()).getByRole('textbox', { name: 'Prompt' }), 'a heron{Enter}');
    await waitFor(() => expect(submit.waiting).toBe(1));
    expect(request['tasks:submit'].inputs[0]).toMatchObject({
      request: { model: 'black-forest-labs/flux-schnell' },
      target: { provider: 'replicate', endpoint: 'https://api.replicate.com' },
    });
    expect(setting.waiting).toBeGreaterThanOrEqual(1);
    expect(main.runtime.settings.get().provider).toBe('pictor');
  });
});

describe('each task’s service in the history and the gallery', () => {
  it('names the service on each row and filters the list by it', async () => {
    const { user, main } = await startWiredApp({
      prepare: (main) =>
        void seedHistory(main, 3, (index) =>
          // A fal task went to fal's address (one at a demo endpoint is the demo's, service-id.ts).
          index === 1 ? { provider: 'fal', endpoint: 'https://queue.fal.run' } : {},
        ),
    });
    const rows = await screen.findAllByRole('article');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByText(/^fal\.ai · /)).toBeTruthy();
    // The seeded tasks of today's contract are the built-in demo's (endpoint `demo:`): named so.
    expect(within(rows[0]!).getByText(/^Built-in demo service · /)).toBeTruthy();
    // The service filter is one of the filter toolbar's controls (no Tab stop of its own).
    const toolbar = within(screen.getByRole('toolbar', { name: 'Filter by status' }));
    await user.selectOptions(toolbar.getByRole('combobox', { name: 'Service' }), 'fal');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(1));
    expect(main.callsTo('tasks:list').at(-1)).toMatchObject({ provider: 'fal' });
    // The seeded tasks at the demo's endpoint are the demo's, a service of its own in the filter.
    await user.selectOptions(toolbar.getByRole('combobox', { name: 'Service' }), 'demo');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
  });

  it('filters the gallery by service, each image keeping its task’s service', async () => {
    const { user, main } = await startWiredApp({
      prepare: (main) =>
        void seedHistory(main, 3, (index) => ({
          images: [makeImage(0, { file: `g/${String(index)}.png` })],
          // A bfl task went to bfl's address (one at a demo endpoint is the demo's).
          ...(index === 0 ? { provider: 'bfl' as const, endpoint: 'https://api.bfl.ai' } : {}),
        })),
    });
    await user.click(screen.getByRole('button', { name: 'Gallery' }));
    const filters = await screen.findByRole('search', { name: /filter/i });
    const toolbar = within(within(filters).getByRole('toolbar', { name: 'Filter the gallery' }));
    await user.selectOptions(toolbar.getByRole('combobox', { name: 'Service' }), 'bfl');
    await waitFor(() =>
      expect(main.callsTo('gallery:list').at(-1)).toMatchObject({ provider: 'bfl' }),
    );
    await waitFor(() => expect(selectGalleryItems(useAppStore.getState())).toHaveLength(1));
    expect(selectGalleryItems(useAppStore.getState())[0]?.provider).toBe('bfl');
  });
});
