/**
 * "Connect a service" in one panel: from the first-run banner, the service, its address (filled
 * in for the known providers), the key, Test, Save, in that order, to a checked key, asking one
 * question at most; the address is saved before the key is tested or stored (main sends a key
 * being entered only to the address saved for its service), through the same requests Settings
 * makes.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { InMemoryCipher } from '../../../fakes/in-memory-cipher';
import type { WiredApi } from '../../../support/wired-api';
import { connectService, SERVICE_KEY, startDialect, unusedAddress } from '../dialect-services';
import { startWiredApp, type WiredApp } from '../render-wired-app';
import { ownAddress } from '../../../support/own-address';
import { pasteInto } from '../paste-into';

/** The key the dialect services take. */
const KEY = SERVICE_KEY;
const DASHSCOPE = 'Alibaba Cloud DashScope';

async function openPanel(user: WiredApp['user']) {
  const banner = screen.getByRole('region', { name: 'Demo service' });
  await user.click(within(banner).getByRole('button', { name: 'Connect a service' }));
  return screen.findByRole('dialog', { name: 'Connect a service' });
}

/** The channels asked, in order, of those a connection uses. */
function asked(main: WiredApi): string[] {
  const channels = ['settings:update', 'service:testConnection', 'service:testService', 'keys:set'];
  return main.calls.map((call) => call.channel).filter((channel) => channels.includes(channel));
}

describe('Connect a service', () => {
  it('first run to a checked key in one panel: service, address, key, Test, Save', async () => {
    // DashScope's address is a DashScope dialect on loopback (Settings says so), no key yet.
    let service = '';
    const { user, main } = await startWiredApp({
      prepare: async (main) => {
        service = (await connectService(main, 'dashscope', { key: null })).url;
      },
    });
    const panel = await openPanel(user);
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Service' }), 'dashscope');
    // The service's state, and its own address filled in.
    within(panel).getByText('No key');
    const address = within(panel).getByRole('textbox', { name: 'Address' });
    expect(address).toHaveProperty('value', service);
    const key = within(panel).getByLabelText(`${DASHSCOPE} API key`);
    expect(key).toHaveProperty('type', 'password');
    await pasteInto(user, key, KEY);

    await user.click(within(panel).getByRole('button', { name: 'Test connection' }));
    await within(panel).findByText(
      `The service at ${new URL(service).host} answered and accepted the key.`,
    );
    // The key being entered is what was tested, at the service's address (its own: nothing to save).
    expect(main.callsTo('service:testService')).toEqual([{ provider: 'dashscope', key: KEY }]);
    expect(main.callsTo('settings:update')).toEqual([]);

    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await screen.findByText(
      `Connected to ${DASHSCOPE}: the service accepted your key. New tasks go there.`,
    );
    expect(main.callsTo('keys:set')).toEqual([
      { provider: 'dashscope', key: KEY, allowWeakStorage: false },
    ]);
    expect(useAppStore.getState().serviceKeys?.dashscope?.check?.outcome).toBe('accepted');
    // No question was asked, and the compose form now sends there.
    expect(screen.queryByRole('alertdialog')).toBeNull();
    const form = screen.getByRole('form', { name: 'New task' });
    await waitFor(() =>
      expect(within(form).getByRole('combobox', { name: 'Service' })).toHaveProperty(
        'value',
        'dashscope',
      ),
    );
    expect(screen.queryByRole('region', { name: 'Demo service' })).toBeNull();
    expect(document.activeElement).toBe(within(form).getByRole('textbox', { name: 'Prompt' }));
    expect(JSON.stringify(useAppStore.getState())).not.toContain(KEY);
  });

  it('saves an address of the user’s own before the key is tested or stored', async () => {
    const { user, main } = await startWiredApp();
    const fal = await startDialect('fal');
    const panel = await openPanel(user);
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Service' }), 'fal');
    const address = within(panel).getByRole('textbox', { name: 'Address' });
    expect(address).toHaveProperty('value', 'https://queue.fal.run');
    await user.clear(address);
    await pasteInto(user, address, fal.url);
    await pasteInto(user, within(panel).getByLabelText('fal.ai API key'), KEY);
    await user.click(within(panel).getByRole('button', { name: 'Test connection' }));
    await within(panel).findByText(/accepted the key/);
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(asked(main)).toEqual([
      'settings:update',
      'service:testService',
      'keys:set',
      // The compose form's service, remembered.
      'settings:update',
    ]);
    expect(main.callsTo('settings:update')[0]).toEqual({ serviceBaseUrls: { fal: fal.url } });
    await waitFor(() => expect(useAppStore.getState().serviceKeys?.fal?.baseUrl).toBe(fal.url));
    // The test and the check on save were both asked of the address saved first, with the key
    // (fal's probe asks once more without it, to tell a refusal from any 404).
    const keyed = fal.log.requests.filter((request) => request.account !== null);
    expect(keyed.map((request) => request.account)).toEqual(['user', 'user']);
  });

  it('today’s contract: the address is asked for first, saved, then the key tested there', async () => {
    const { user, main } = await startWiredApp();
    const service = await startDialect('pictor');
    const panel = await openPanel(user);
    // At first run the form's service is today's contract: the panel starts there, no address.
    const address = within(panel).getByRole('textbox', { name: 'Address' });
    expect(address).toHaveProperty('value', '');
    await pasteInto(user, within(panel).getByLabelText('API key'), KEY);
    await user.click(within(panel).getByRole('button', { name: 'Test connection' }));
    await within(panel).findByText(/Enter the service’s address first/);
    expect(address.getAttribute('aria-invalid')).toBe('true');
    expect(asked(main)).toEqual([]);

    await pasteInto(user, address, service.url);
    await user.click(within(panel).getByRole('button', { name: 'Test connection' }));
    await within(panel).findByText(
      `The service at ${new URL(service.url).host} answered and accepted the key.`,
    );
    expect(main.callsTo('settings:update')).toEqual([ownAddress(service.url)]);
    expect(main.callsTo('service:testConnection')).toEqual([{ baseUrl: service.url, key: KEY }]);
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    // Named by its address's host, never the generic name, once it has one.
    await screen.findByText(
      `Connected to ${new URL(service.url).host}: the service accepted your key. New tasks go there.`,
    );
    expect(useAppStore.getState().serviceKeys?.pictor).toMatchObject({
      state: 'ready',
      baseUrl: service.url,
      check: { outcome: 'accepted' },
    });
    // With a key and an address, the demo is over: its banner goes.
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Demo service' })).toBeNull());
  });

  it('a refused key: the reason beside the field, nothing stored, the panel stays', async () => {
    // A BFL dialect that knows another key: it refuses this one.
    const { user, main } = await startWiredApp({
      prepare: (main) => connectService(main, 'bfl', { key: null }).then(() => undefined),
    });
    const panel = await openPanel(user);
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Service' }), 'bfl');
    const key = within(panel).getByLabelText('Black Forest Labs API key');
    await pasteInto(user, key, 'bfl-not-this-account-key');
    await user.keyboard('{Enter}');
    await within(panel).findByText(
      /The key was not saved\. The service at 127\.0\.0\.1:\d+ refused/,
    );
    expect(key.getAttribute('aria-invalid')).toBe('true');
    expect(useAppStore.getState().serviceKeys?.bfl?.state).toBe('not_set');
    expect(main.runtime.keys.vault('bfl').status().state).toBe('not_set');
    expect(screen.getByRole('dialog', { name: 'Connect a service' })).toBe(panel);
  });

  it('asks its one question in the panel when the service cannot be asked, then saves unchecked', async () => {
    // Replicate's address is one where nothing listens.
    const nowhere = await unusedAddress();
    const { user, main } = await startWiredApp({
      prepare: (main) =>
        main.runtime
          .updateSettings({ serviceBaseUrls: { replicate: nowhere } })
          .then(() => undefined),
    });
    const panel = await openPanel(user);
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Service' }), 'replicate');
    await pasteInto(user, within(panel).getByLabelText('Replicate API key'), KEY);
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    const question = await within(panel).findByRole('group', {
      name: 'Save the key without checking it?',
    });
    expect(question.textContent).toContain(new URL(nowhere).host);
    // In the panel, not a dialog over it.
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await user.click(within(question).getByRole('button', { name: 'Save anyway' }));
    await screen.findByText(
      'Connected to Replicate, with a key not checked yet. New tasks go there.',
    );
    expect(main.callsTo('keys:set').at(-1)).toEqual({
      provider: 'replicate',
      key: KEY,
      allowWeakStorage: false,
      skipCheck: true,
    });
  });

  it('asks about weak storage in the panel, once', async () => {
    // The OS keyring is the weak plain-text one (Linux without a secret service).
    const { user, main } = await startWiredApp({
      runtime: { cipher: new InMemoryCipher({ backend: 'basic_text' }) },
      prepare: (main) => connectService(main, 'fal', { key: null }).then(() => undefined),
    });
    const panel = await openPanel(user);
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Service' }), 'fal');
    await pasteInto(user, within(panel).getByLabelText('fal.ai API key'), KEY);
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    await user.click(
      await within(panel).findByRole('button', { name: 'Store with weaker protection' }),
    );
    await screen.findByText(
      'Connected to fal.ai: the service accepted your key. New tasks go there.',
    );
    expect(main.callsTo('keys:set').map((input) => input.allowWeakStorage)).toEqual([false, true]);
    expect(main.runtime.keys.vault('fal').status()).toMatchObject({ state: 'ready', weak: true });
  });
});
