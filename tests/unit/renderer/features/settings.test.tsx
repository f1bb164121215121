import { act, screen, waitFor, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { applyLocale } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import type { RequestOutput } from '../../../../shared/ipc/contract';
import type { FakePictorApi } from '../../../fakes/fake-pictor-api';
import { startApp } from '../render-app';
import { connectService } from '../dialect-services';
import { startWiredApp, type WiredAppOptions } from '../render-wired-app';

async function openSettings(prepare?: (fake: FakePictorApi) => void) {
  const app = await startApp(prepare ? { prepare } : {});
  act(() => useAppStore.getState().setView('settings'));
  await screen.findByRole('heading', { name: 'Settings', level: 1 });
  return app;
}

/** Settings over main's real handlers and settings (tests/support/wired-api.ts). */
async function openWiredSettings(options: WiredAppOptions = {}) {
  const app = await startWiredApp(options);
  act(() => useAppStore.getState().setView('settings'));
  await screen.findByRole('heading', { name: 'Settings', level: 1 });
  return { ...app, saved: () => app.main.runtime.settings.get() };
}

const keyRegion = () => screen.getByRole('region', { name: 'API key' });
const keyInput = () => within(keyRegion()).getByLabelText('API key');

const withAddress = (fake: FakePictorApi) => {
  fake.settings = { ...fake.settings, baseUrl: 'https://api.example.com' };
};

/** What main's keys:set was asked for today's contract's key. */
const saves = (fake: FakePictorApi) => fake.callsTo('keys:set');

describe('API key', () => {
  it('says which service the stored key is sent to', async () => {
    const { user, fake } = await openSettings();
    fake.settings = { ...fake.settings, baseUrl: 'https://api.example.com/v1' };
    await user.type(keyInput(), 'sk-secret-value-123');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    await within(keyRegion()).findByText(
      'Sent only to https://api.example.com. Pictor asks you before it goes anywhere else.',
    );
    await within(screen.getByRole('status', { name: 'Done' })).findByText('Key saved.');
  });

  it('is pasted into a masked field and afterwards only its fingerprint is shown', async () => {
    const { user, fake } = await openSettings(withAddress);
    expect(keyInput().getAttribute('type')).toBe('password');
    expect(keyInput().getAttribute('autocomplete')).toBe('off');
    await user.type(keyInput(), 'sk-secret-value-123');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    await within(keyRegion()).findByText(/A key is stored\. Fingerprint: [0-9a-f]{12}/);
    expect(saves(fake)).toEqual([
      { provider: 'pictor', key: 'sk-secret-value-123', allowWeakStorage: false },
    ]);
    expect(within(keyRegion()).getByText('Protected by the GNOME keyring.')).toBeTruthy();
    // The key itself is nowhere in the page, not even in a field's value.
    expect(document.body.innerHTML).not.toContain('sk-secret-value-123');
    expect(within(keyRegion()).queryByLabelText('API key')).toBeNull();
    expect(JSON.stringify(useAppStore.getState().keyStatus)).not.toContain('sk-secret');
  });

  it('has nowhere to check a key without an address: asks, and keeps it “not checked yet”', async () => {
    const { user, fake } = await openSettings();
    await user.type(keyInput(), 'sk-secret-value-123');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    const ask = await screen.findByRole('alertdialog', {
      name: 'Save the key without checking it?',
    });
    expect(ask.textContent).toContain('Enter your service’s address above first');
    await user.click(within(ask).getByRole('button', { name: 'Save anyway' }));
    await within(keyRegion()).findByText(/A key is stored/);
    // Tied to no service yet, and not checked: no tick.
    expect(within(keyRegion()).getByText(/Not tied to a service yet/)).toBeTruthy();
    within(keyRegion()).getByText(
      'Not checked yet: Test connection asks the service whether it takes this key.',
    );
    await within(screen.getByRole('status', { name: 'Done' })).findByText(
      'Key saved, not checked yet.',
    );
    expect(saves(fake)).toEqual([
      { provider: 'pictor', key: 'sk-secret-value-123', allowWeakStorage: false },
      { provider: 'pictor', key: 'sk-secret-value-123', allowWeakStorage: false, skipCheck: true },
    ]);
  });

  it('warns plainly when the stored key is weakly protected', async () => {
    await openSettings((fake) => {
      fake.keyStatus = {
        state: 'ready',
        fingerprint: 'abcdef123456',
        backend: 'basic_text',
        weak: true,
        message:
          'Your key is stored with Chromium’s basic text store, as you agreed: anyone who can read your files could read the key.',
      };
    });
    expect(
      within(keyRegion()).getByText('Protected by Chromium’s basic text store (weak).'),
    ).toBeTruthy();
    expect(
      within(keyRegion()).getByText(/anyone who can read your files could read the key/),
    ).toBeTruthy();
  });

  it('asks before storing with weak protection, and stores only after consent', async () => {
    const { user, fake } = await openSettings((api) => {
      withAddress(api);
      api.storage = { backend: 'basic_text', weak: true };
    });
    await user.type(keyInput(), 'sk-weak');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    const question = await within(keyRegion()).findByRole('group', {
      name: 'Store with weaker protection?',
    });
    expect(within(question).getByRole('alert').textContent).toMatch(/effectively plain text/);
    // Nothing stored yet.
    expect(useAppStore.getState().keyStatus).toMatchObject({
      state: 'needs_consent',
      fingerprint: null,
    });
    await user.click(
      within(question).getByRole('button', { name: 'Store with weaker protection' }),
    );
    await within(keyRegion()).findByText(/A key is stored/);
    expect(saves(fake)).toEqual([
      { provider: 'pictor', key: 'sk-weak', allowWeakStorage: false },
      { provider: 'pictor', key: 'sk-weak', allowWeakStorage: true },
    ]);
    expect(within(keyRegion()).getByText(/as you agreed/)).toBeTruthy();
  });

  it('asks about weak storage first, then saves unchecked weakly when the service cannot be asked', async () => {
    const { user, fake } = await openSettings((api) => {
      withAddress(api);
      api.storage = { backend: 'basic_text', weak: true };
      api.keyCheck = { ok: false, outcome: 'unreachable', message: 'Nothing answers there.' };
    });
    await user.type(keyInput(), 'sk-weak');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    await user.click(
      await within(keyRegion()).findByRole('button', { name: 'Store with weaker protection' }),
    );
    const ask = await screen.findByRole('alertdialog', {
      name: 'Save the key without checking it?',
    });
    await user.click(within(ask).getByRole('button', { name: 'Save anyway' }));
    await within(keyRegion()).findByText(/A key is stored/);
    expect(saves(fake).at(-1)).toEqual({
      provider: 'pictor',
      key: 'sk-weak',
      allowWeakStorage: true,
      skipCheck: true,
    });
  });

  it('declining consent stores nothing and empties the field', async () => {
    const { user, fake } = await openSettings((api) => {
      api.storage = { backend: 'basic_text', weak: true };
    });
    await user.type(keyInput(), 'sk-weak');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    await user.click(await within(keyRegion()).findByRole('button', { name: 'Don’t store it' }));
    expect(keyInput()).toHaveProperty('value', '');
    expect(saves(fake)).toHaveLength(1);
  });

  it('clearing the key brings back the demo banner', async () => {
    const { user } = await openSettings((fake) => {
      fake.keyStatus = {
        state: 'ready',
        fingerprint: 'abcdef123456',
        backend: 'keychain',
        weak: false,
        message: null,
      };
      fake.settings = { ...fake.settings, baseUrl: 'https://api.example.com' };
      fake.info = { ...fake.info, demo: false };
    });
    expect(screen.queryByRole('region', { name: 'Demo service' })).toBeNull();
    await user.click(within(keyRegion()).getByRole('button', { name: 'Remove key' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove key' }),
    );
    await screen.findByRole('region', { name: 'Demo service' });
    expect(keyInput()).toBeTruthy();
  });

  it('a refused key shows the main process’s sentence', async () => {
    const { user, fake } = await openSettings();
    fake.fail('keys:set', {
      code: 'bad_input',
      message: 'The key contains spaces or line breaks. Paste it again.',
    });
    await user.type(keyInput(), 'sk bad');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    expect((await within(keyRegion()).findByRole('alert')).textContent).toContain(
      'The key contains spaces or line breaks.',
    );
  });
});

describe('a stored key says what its service said of it', () => {
  // Today's contract at a service of the user's own; what it said of the key is main's record.
  const year = String(new Date().getFullYear());

  it('a tick only beside a key the service accepted, with when it was checked', async () => {
    await openWiredSettings({
      prepare: (main) => connectService(main, 'pictor').then(() => undefined),
    });
    const line = within(keyRegion()).getByText(
      new RegExp(`^The service accepted this key when it was checked, .*${year}`),
    );
    expect(line.parentElement?.querySelector('svg')).not.toBeNull();
    expect(within(keyRegion()).queryByText(/Not checked yet/)).toBeNull();
  });

  it('“not checked yet”, without a tick, when unchecked', async () => {
    await openWiredSettings({
      prepare: (main) => connectService(main, 'pictor', { checked: false }).then(() => undefined),
    });
    within(keyRegion()).getByText(
      'Not checked yet: Test connection asks the service whether it takes this key.',
    );
    expect(within(keyRegion()).queryByText(/accepted this key/)).toBeNull();
    expect(keyRegion().querySelector('.key-stored__icon')).toBeNull();
  });

  // On the fake for now: main's record of a refused check for today's contract was not
  // reproduced through service:testService in the time box (see the report).
  it('a refusal as a warning, without a tick', async () => {
    await openSettings((fake) => {
      withAddress(fake);
      fake.keyStatus = {
        state: 'ready',
        fingerprint: 'abcdef123456',
        backend: 'keychain',
        weak: false,
        message: null,
        baseUrl: 'https://api.example.com',
        check: { outcome: 'refused', at: Date.UTC(2026, 10, 25, 11, 0) },
      };
    });
    within(keyRegion()).getByText(/^The service refused this key when it was last checked, .*2026/);
    expect(keyRegion().querySelector('.key-stored__icon')).toBeNull();
  });
});

describe('saving a key checks it with the service first', () => {
  it('main checks the key with the saved address, then stores it with the tick', async () => {
    const { user, fake } = await openSettings(withAddress);
    await user.type(keyInput(), 'sk-good-key-123');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    await within(screen.getByRole('status', { name: 'Done' })).findByText('Key saved.');
    // The check is main's, in the same request: the page cannot mark a key as checked.
    expect(fake.callsTo('service:testConnection')).toEqual([]);
    expect(saves(fake)).toEqual([
      { provider: 'pictor', key: 'sk-good-key-123', allowWeakStorage: false },
    ]);
    within(keyRegion()).getByText(/^The service accepted this key when it was checked/);
  });

  it('says it is checking the key while the service is asked', async () => {
    const { user, fake } = await openSettings(withAddress);
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    fake.handle('keys:set', async () => {
      await answered;
      const status = {
        state: 'ready',
        fingerprint: 'abcdef123456',
        backend: 'gnome_libsecret',
        weak: false,
        message: null,
        baseUrl: 'https://api.example.com',
        check: { outcome: 'accepted', at: Date.UTC(2026, 0, 1) },
      } as const;
      return { outcome: 'saved', status };
    });
    await user.type(keyInput(), 'sk-slow-key-123');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    expect(within(keyRegion()).getByText('Checking and saving the key…')).toBeTruthy();
    answer();
    await within(screen.getByRole('status', { name: 'Done' })).findByText('Key saved.');
    expect(within(keyRegion()).queryByText('Checking and saving the key…')).toBeNull();
  });

  it('refuses to store a key the service refused, saying why beside the field', async () => {
    const { user, fake } = await openSettings(withAddress);
    fake.keyCheck = {
      ok: false,
      outcome: 'key_refused',
      message:
        'The service at api.example.com refused this key (401). Check that you copied the whole key and that it belongs to this service.',
      detail: 'HTTP 401',
    };
    await user.type(keyInput(), 'sk-wrong-key-123');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    const alert = await within(keyRegion()).findByRole('alert');
    expect(alert.textContent).toContain(
      'The key was not saved. The service at api.example.com refused this key (401).',
    );
    expect(alert.textContent).not.toContain('in Settings');
    // Beside the field: the field says it is invalid and is described by the reason.
    expect(keyInput().getAttribute('aria-invalid')).toBe('true');
    expect(keyInput().getAttribute('aria-describedby')).toContain(alert.id);
    expect(useAppStore.getState().keyStatus?.state).toBe('not_set');
    // Typing another key takes the reason away.
    await user.type(keyInput(), 'x');
    expect(within(keyRegion()).queryByRole('alert')).toBeNull();
  });

  it('asks whether to save a key the service could not be asked about', async () => {
    const { user, fake } = await openSettings(withAddress);
    fake.keyCheck = {
      ok: false,
      outcome: 'unreachable',
      message: 'Pictor could not reach the service at api.example.com.',
    };
    await user.type(keyInput(), 'sk-offline-123');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    let ask = await screen.findByRole('alertdialog', { name: 'Save the key without checking it?' });
    expect(ask.textContent).toContain('could not reach the service');
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(useAppStore.getState().keyStatus?.state).toBe('not_set');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    ask = await screen.findByRole('alertdialog', { name: 'Save the key without checking it?' });
    await user.click(within(ask).getByRole('button', { name: 'Save anyway' }));
    await within(screen.getByRole('status', { name: 'Done' })).findByText(
      'Key saved, not checked yet.',
    );
    within(keyRegion()).getByText(/^Not checked yet/);
    expect(saves(fake).at(-1)).toEqual({
      provider: 'pictor',
      key: 'sk-offline-123',
      allowWeakStorage: false,
      skipCheck: true,
    });
  });
});

describe('service', () => {
  const region = () => screen.getByRole('region', { name: 'Image task service' });

  it('saves the base URL and shows a refusal as a sentence under the field', async () => {
    const { user, saved } = await openWiredSettings();
    const url = within(region()).getByLabelText('Service address (base URL)');
    await user.type(url, 'ftp://nope');
    await user.click(within(region()).getByRole('button', { name: 'Save' }));
    expect((await within(region()).findByRole('alert')).textContent).toContain(
      'must start with https://',
    );
    expect(url.getAttribute('aria-invalid')).toBe('true');
    await user.clear(url);
    await user.type(url, 'https://api.example.com{Enter}');
    await waitFor(() => expect(saved().baseUrl).toBe('https://api.example.com'));
    expect(within(region()).queryByRole('alert')).toBeNull();
    // "Saved." is shown, not only spoken: the toast corner's polite region.
    await within(screen.getByRole('status', { name: 'Done' })).findByText('Saved.');
  });

  it('"Test connection" sits after the key field and reports what the service answered', async () => {
    const { user, fake } = await openSettings();
    const button = within(keyRegion()).getByRole('button', { name: 'Test connection' });
    // After the key field, in the order of the page.
    expect(
      keyInput().compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(within(region()).queryByRole('button', { name: 'Test connection' })).toBeNull();
    await user.click(button);
    expect(
      await within(keyRegion()).findByText('The service answered: your key works.'),
    ).toBeTruthy();
    fake.connection = {
      ok: false,
      outcome: 'key_refused',
      message: 'The service at api.example.com refused this key (401).',
      detail: 'HTTP 401 {"error":"invalid_api_key"}',
    };
    await user.click(within(keyRegion()).getByRole('button', { name: 'Test connection' }));
    const alert = await within(keyRegion()).findByRole('alert');
    expect(alert.textContent).toContain('refused this key (401).');
    await user.click(within(alert).getByText('Details'));
    expect(within(alert).getByText('HTTP 401 {"error":"invalid_api_key"}')).toBeTruthy();
  });

  it('tests the address in the field, saved or not, with the key being entered', async () => {
    const { user, fake } = await openSettings();
    const url = within(region()).getByLabelText('Service address (base URL)');
    await user.type(url, '  https://typed.example.com/v1 ');
    const test = () =>
      user.click(within(keyRegion()).getByRole('button', { name: 'Test connection' }));
    await test();
    await within(keyRegion()).findByText('The service answered: your key works.');
    await user.type(keyInput(), 'sk-being-typed-123');
    await test();
    await within(keyRegion()).findByText('The service answered: your key works.');
    expect(fake.callsTo('service:testConnection')).toEqual([
      { baseUrl: 'https://typed.example.com/v1' },
      { baseUrl: 'https://typed.example.com/v1', key: 'sk-being-typed-123' },
    ]);
    expect(fake.callsTo('settings:update')).toEqual([]);
    expect(fake.callsTo('keys:set')).toEqual([]);
  });

  it('clears the result as soon as the address or the key changes', async () => {
    const { user, fake } = await openSettings();
    const url = within(region()).getByLabelText('Service address (base URL)');
    const result = 'The service answered: your key works.';
    const testIt = async () => {
      await user.click(within(keyRegion()).getByRole('button', { name: 'Test connection' }));
      await within(keyRegion()).findByText(result);
    };
    await testIt();
    await user.type(url, 'h');
    expect(within(keyRegion()).queryByText(result)).toBeNull();
    await testIt();
    await user.type(keyInput(), 'k');
    expect(within(keyRegion()).queryByText(result)).toBeNull();
    await testIt();
    act(() =>
      fake.emit('key:changed', {
        state: 'ready',
        fingerprint: 'abcdef123456',
        backend: 'gnome_libsecret',
        weak: false,
        message: null,
        baseUrl: null,
      }),
    );
    expect(within(keyRegion()).queryByText(result)).toBeNull();
  });

  it('drops an answer that arrives after the address changed', async () => {
    const { user, fake } = await openSettings();
    let answer: (report: RequestOutput<'service:testConnection'>) => void = () => undefined;
    fake.handle('service:testConnection', () => new Promise((resolve) => (answer = resolve)));
    const url = within(region()).getByLabelText('Service address (base URL)');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(fake.callsTo('service:testConnection')).toHaveLength(1));
    await user.type(url, 'https://other.example.com');
    await act(async () =>
      answer({ ok: true, outcome: 'accepted', message: 'The built-in demo service answered.' }),
    );
    expect(within(keyRegion()).queryByText('The built-in demo service answered.')).toBeNull();
    expect(
      within(keyRegion()).getByRole('button', { name: 'Test connection' }).hasAttribute('disabled'),
    ).toBe(false);
  });

  it('shows the address as main saved it, /v1 removed', async () => {
    const { user, main, saved } = await openWiredSettings({
      prepare: async (wired) =>
        void (await wired.runtime.updateSettings({ baseUrl: 'https://api.example.com' })),
    });
    const url = within(region()).getByLabelText<HTMLInputElement>('Service address (base URL)');
    expect(url.value).toBe('https://api.example.com');
    await user.type(url, '/v1/{Enter}');
    await waitFor(() =>
      expect(main.callsTo('settings:update')).toEqual([{ baseUrl: 'https://api.example.com/v1/' }]),
    );
    await waitFor(() => expect(url.value).toBe('https://api.example.com'));
    expect(saved().baseUrl).toBe('https://api.example.com');
  });
});

describe('defaults, gallery, behaviour', () => {
  it('saves defaults when valid and says why a typed value is not', async () => {
    const { user, saved } = await openWiredSettings();
    const region = screen.getByRole('region', { name: 'New prompts' });
    await user.selectOptions(within(region).getByRole('combobox', { name: 'Size' }), '1024x1536');
    await waitFor(() => expect(saved().defaultSize).toBe('1024x1536'));
    await user.selectOptions(within(region).getByRole('combobox', { name: 'Size' }), 'Custom…');
    const custom = within(region).getByRole('textbox', { name: /Custom size/ });
    await user.clear(custom);
    await user.type(custom, '12x');
    expect(within(region).getByText(/two whole numbers/)).toBeTruthy();
    await user.type(custom, '34');
    await user.tab();
    await waitFor(() => expect(saved().defaultSize).toBe('12x34'));
    const count = within(region).getByRole('spinbutton', { name: 'Number of tasks' });
    await user.clear(count);
    await user.type(count, '0');
    await user.tab();
    expect(within(region).getByText('Choose a whole number from 1 to 10.')).toBeTruthy();
    expect(saved().defaultCount).toBe(1);
    await user.clear(count);
    await user.type(count, '4{Enter}');
    await waitFor(() => expect(saved().defaultCount).toBe(4));
    // The compose form follows the new defaults.
    expect(useAppStore.getState().composeDraft).toMatchObject({
      size: '12x34',
      sizeCustom: true,
      count: '4',
    });
  });

  it('validates the watch timeout (0 = never)', async () => {
    const { user, main, saved } = await openWiredSettings();
    const input = screen.getByRole('spinbutton', { name: /Stop watching a task after/ });
    await user.clear(input);
    await user.type(input, '20000');
    await user.tab();
    expect(
      screen.getByText('Enter a whole number of minutes from 0 to 10080 (one week).'),
    ).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(main.callsTo('settings:update')).toEqual([]);
    await user.clear(input);
    await user.type(input, '0');
    await user.tab();
    await waitFor(() => expect(saved().watchTimeoutMinutes).toBe(0));
    expect(screen.getByText('Tasks are watched until they finish.')).toBeTruthy();
  });

  it('changes the gallery folder through the folder picker', async () => {
    const { user, fake } = await openSettings();
    const region = screen.getByRole('region', { name: 'Gallery' });
    expect(within(region).getByText('/home/ada/Pictures/Pictor')).toBeTruthy();
    await user.click(within(region).getByRole('button', { name: 'Change…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the gallery folder' });
    await user.click(within(dialog).getByRole('button', { name: 'Move this library there' }));
    await waitFor(() => expect(fake.settings.galleryDir).toBe('/home/ada/Images/Pictor'));
    expect(within(region).getByText('/home/ada/Images/Pictor')).toBeTruthy();
    fake.chosenFolder = null;
    await user.click(within(region).getByRole('button', { name: 'Change…' }));
    // The page never names a folder: main's dialog chooses, the page sends back only a ticket.
    await waitFor(() => expect(fake.callsTo('library:pick')).toHaveLength(2));
    expect(fake.callsTo('library:move')).toEqual([{ ticket: 'ticket-1' }]);
    expect(fake.callsTo('library:open')).toEqual([]);
    expect(screen.queryByRole('dialog', { name: 'Change the gallery folder' })).toBeNull();
    expect(fake.callsTo('settings:update')).toEqual([]);
  });

  it('turning the folder question down tells main, which ends its ticket', async () => {
    const { user, main } = await openWiredSettings();
    main.env.PICTOR_E2E_CHOOSE_FOLDER = join(main.dir, 'elsewhere');
    const region = screen.getByRole('region', { name: 'Gallery' });
    await user.click(within(region).getByRole('button', { name: 'Change…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the gallery folder' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'Change the gallery folder' })).toBeNull();
    await waitFor(() => expect(main.callsTo('library:cancel')).toHaveLength(1));
    expect([...main.callsTo('library:move'), ...main.callsTo('library:open')]).toEqual([]);
  });

  it('applies the theme to <html>, following the system when asked', async () => {
    let dark = true;
    // The system theme's listeners (other queries, such as the headers' fold, have their own).
    const listeners = new Set<() => void>();
    vi.stubGlobal('matchMedia', (query: string) => {
      const theme = query.includes('prefers-color-scheme');
      return {
        get matches() {
          return theme && query.includes('dark') && dark;
        },
        addEventListener: (_type: string, listener: () => void) => {
          if (theme) listeners.add(listener);
        },
        removeEventListener: (_type: string, listener: () => void) => {
          if (theme) listeners.delete(listener);
        },
      };
    });
    try {
      const { user } = await openWiredSettings();
      expect(document.documentElement.dataset.theme).toBe('dark');
      act(() => {
        dark = false;
        listeners.forEach((listener) => listener());
      });
      expect(document.documentElement.dataset.theme).toBe('light');
      await user.click(screen.getByRole('radio', { name: 'Dark' }));
      await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
      await user.click(screen.getByRole('radio', { name: 'Light' }));
      await waitFor(() => expect(document.documentElement.dataset.theme).toBe('light'));
      expect(listeners.size).toBe(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('switches the language at once and confirms in the new one', async () => {
    const german = JSON.parse(
      readFileSync(
        resolve(import.meta.dirname, '../../../../renderer/i18n/locales/de.json'),
        'utf8',
      ),
    ) as Record<string, string>;
    const { user, main } = await openWiredSettings();
    try {
      await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'Deutsch');
      await waitFor(() => expect(document.documentElement.lang).toBe('de'));
      expect(main.callsTo('settings:update')).toContainEqual({ language: 'de' });
      await screen.findByRole('heading', { name: german['settings.title'], level: 1 });
      await within(
        screen.getByRole('status', { name: german['toasts.confirmationsLabel'] }),
      ).findByText(german['settings.saved']!);
      // The choice stays selected after the window redrew in German.
      const field = screen.getByRole('combobox', { name: german['settings.language.label'] });
      expect((field as HTMLSelectElement).value).toBe('de');
    } finally {
      await act(() => applyLocale('en'));
    }
  });

  it('switches notifications', async () => {
    const { user, saved } = await openWiredSettings();
    await user.click(screen.getByRole('checkbox', { name: 'Notify me when a task finishes' }));
    await waitFor(() => expect(saved().notifications).toBe(false));
  });
});
