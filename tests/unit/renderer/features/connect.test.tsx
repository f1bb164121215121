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
import { startApp, type StartedApp } from '../render-app';

const KEY = 'sk-connect-0123456789';
const DASHSCOPE = 'Alibaba Cloud DashScope';

async function openPanel(user: StartedApp['user']) {
  const banner = screen.getByRole('region', { name: 'Demo service' });
  await user.click(within(banner).getByRole('button', { name: 'Connect a service' }));
  return screen.findByRole('dialog', { name: 'Connect a service' });
}

/** The channels asked, in order, of those a connection uses. */
function asked(fake: StartedApp['fake']): string[] {
  const channels = ['settings:update', 'service:testConnection', 'service:testService', 'keys:set'];
  return fake.calls.map((call) => call.channel).filter((channel) => channels.includes(channel));
}

describe('Connect a service', () => {
  it('first run to a checked key in one panel: service, address, key, Test, Save', async () => {
    const { user, fake } = await startApp();
    const panel = await openPanel(user);
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Service' }), 'dashscope');
    // The service's state, and its own address filled in.
    within(panel).getByText('No key');
    const address = within(panel).getByRole('textbox', { name: 'Address' });
    expect(address).toHaveProperty('value', 'https://dashscope.aliyuncs.com');
    const key = within(panel).getByLabelText(`${DASHSCOPE} API key`);
    expect(key).toHaveProperty('type', 'password');
    await user.type(key, KEY);

    await user.click(within(panel).getByRole('button', { name: 'Test connection' }));
    await within(panel).findByText(
      'The service at the service’s address answered and accepted the key.',
    );
    // The key being entered is what was tested, at the service's address (its own: nothing to save).
    expect(fake.callsTo('service:testService')).toEqual([{ provider: 'dashscope', key: KEY }]);

    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await screen.findByText(
      `Connected to ${DASHSCOPE}: the service accepted your key. New tasks go there.`,
    );
    expect(fake.callsTo('keys:set')).toEqual([
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
    const { user, fake } = await startApp();
    const panel = await openPanel(user);
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Service' }), 'fal');
    const address = within(panel).getByRole('textbox', { name: 'Address' });
    await user.clear(address);
    await user.type(address, 'https://fal-proxy.example.com');
    await user.type(within(panel).getByLabelText('fal.ai API key'), KEY);
    await user.click(within(panel).getByRole('button', { name: 'Test connection' }));
    await within(panel).findByText(/accepted the key/);
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(asked(fake)).toEqual([
      'settings:update',
      'service:testService',
      'keys:set',
      // The compose form's service, remembered.
      'settings:update',
    ]);
    expect(fake.callsTo('settings:update')[0]).toEqual({
      serviceBaseUrls: { fal: 'https://fal-proxy.example.com' },
    });
    expect(useAppStore.getState().serviceKeys?.fal?.baseUrl).toBe('https://fal-proxy.example.com');
  });

  it('today’s contract: the address is asked for first, saved, then the key tested there', async () => {
    const { user, fake } = await startApp();
    const panel = await openPanel(user);
    // At first run the form's service is today's contract: the panel starts there, no address.
    const address = within(panel).getByRole('textbox', { name: 'Address' });
    expect(address).toHaveProperty('value', '');
    await user.type(within(panel).getByLabelText('API key'), KEY);
    await user.click(within(panel).getByRole('button', { name: 'Test connection' }));
    await within(panel).findByText(/Enter the service’s address first/);
    expect(address.getAttribute('aria-invalid')).toBe('true');
    expect(asked(fake)).toEqual([]);

    await user.type(address, 'https://images.example.com');
    await user.click(within(panel).getByRole('button', { name: 'Test connection' }));
    await within(panel).findByText('The service answered: your key works.');
    expect(fake.callsTo('settings:update')).toEqual([{ baseUrl: 'https://images.example.com' }]);
    expect(fake.callsTo('service:testConnection')).toEqual([
      { baseUrl: 'https://images.example.com', key: KEY },
    ]);
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    await screen.findByText(
      'Connected to Image task service: the service accepted your key. New tasks go there.',
    );
    expect(useAppStore.getState().keyStatus).toMatchObject({
      state: 'ready',
      baseUrl: 'https://images.example.com',
      check: { outcome: 'accepted' },
    });
    // With a key and an address, the demo is over: its banner goes.
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Demo service' })).toBeNull());
  });

  it('a refused key: the reason beside the field, nothing stored, the panel stays', async () => {
    const { user, fake } = await startApp();
    fake.keyCheck = {
      ok: false,
      outcome: 'key_refused',
      message: 'The service at the address refused this key (401).',
    };
    const panel = await openPanel(user);
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Service' }), 'bfl');
    const key = within(panel).getByLabelText('Black Forest Labs API key');
    await user.type(key, `${KEY}{Enter}`);
    await within(panel).findByText(/The key was not saved\. The service at the address refused/);
    expect(key.getAttribute('aria-invalid')).toBe('true');
    expect(useAppStore.getState().serviceKeys?.bfl?.state).toBe('not_set');
    expect(screen.getByRole('dialog', { name: 'Connect a service' })).toBe(panel);
  });

  it('asks its one question in the panel when the service cannot be asked, then saves unchecked', async () => {
    const { user, fake } = await startApp();
    fake.keyCheck = { ok: false, outcome: 'unreachable', message: 'Nothing answers there.' };
    const panel = await openPanel(user);
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Service' }), 'replicate');
    await user.type(within(panel).getByLabelText('Replicate API key'), KEY);
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    const question = await within(panel).findByRole('group', {
      name: 'Save the key without checking it?',
    });
    expect(question.textContent).toContain('Nothing answers there.');
    // In the panel, not a dialog over it.
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await user.click(within(question).getByRole('button', { name: 'Save anyway' }));
    await screen.findByText(
      'Connected to Replicate, with a key not checked yet. New tasks go there.',
    );
    expect(fake.callsTo('keys:set').at(-1)).toEqual({
      provider: 'replicate',
      key: KEY,
      allowWeakStorage: false,
      skipCheck: true,
    });
  });

  it('asks about weak storage in the panel, once', async () => {
    const { user, fake } = await startApp({
      prepare: (f) => {
        f.storage = { backend: 'basic_text', weak: true };
      },
    });
    const panel = await openPanel(user);
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Service' }), 'fal');
    await user.type(within(panel).getByLabelText('fal.ai API key'), KEY);
    await user.click(within(panel).getByRole('button', { name: 'Save' }));
    await user.click(
      await within(panel).findByRole('button', { name: 'Store with weaker protection' }),
    );
    await screen.findByText(
      'Connected to fal.ai: the service accepted your key. New tasks go there.',
    );
    expect(fake.callsTo('keys:set').map((input) => input.allowWeakStorage)).toEqual([false, true]);
  });
});
