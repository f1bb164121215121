import { act, screen, waitFor, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { applyLocale } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import type { RequestOutput } from '../../../../shared/ipc/contract';
import { InMemoryCipher } from '../../../fakes/in-memory-cipher';
import type { WiredApi } from '../../../support/wired-api';
import { SERVICE_KEY, connectService, startDialect, unusedAddress } from '../dialect-services';
import { showSettings, startWiredApp, type WiredAppOptions } from '../render-wired-app';
import { pasteInto } from '../paste-into';
import { ownAddress, savedAddress } from '../../../support/own-address';
import { REPO_ROOT } from '../../../support/source-files';

/** Settings over main's real handlers and settings (tests/support/wired-api.ts). */
async function openWiredSettings(options: WiredAppOptions = {}) {
  const app = await startWiredApp(options);
  await showSettings();
  return { ...app, saved: () => app.main.runtime.settings.get() };
}

/** What Test connection says of an address where no key is stored (and none is being entered). */
const NO_KEY_THERE = /^No API key is set for 127\.0\.0\.1:\d+, so there is nothing to test\./;

/** What Test connection says when a service of today's contract took the key. */
const ACCEPTED = /^The service at 127\.0\.0\.1:\d+ answered and accepted the key\.$/;

/**
 * The API key's region, found by role and name; found again only once the page has replaced it
 * (a query by role over the whole Settings page took most of these tests' own time).
 */
let region: HTMLElement | undefined;
const keyRegion = (): HTMLElement => {
  if (!region?.isConnected) region = screen.getByRole('region', { name: 'API key' });
  return region;
};
const keyInput = () => within(keyRegion()).getByLabelText('API key');

/** Main's key storage is only Chromium's basic text store (weak), as on a desktop without a keyring. */
const weak = () => ({ runtime: { cipher: new InMemoryCipher({ backend: 'basic_text' }) } });

/** Settings whose saved address is a real service of today's contract, no key stored yet. */
async function openWithService(options: WiredAppOptions = {}) {
  let url = '';
  const app = await openWiredSettings({
    ...options,
    prepare: async (main) => {
      url = (await connectService(main, 'pictor', { key: null })).url;
      await options.prepare?.(main);
    },
  });
  return { ...app, url };
}

/** What main's keys:set was asked for today's contract's key. */
const saves = (main: WiredApi) => main.callsTo('keys:set');

describe('API key', () => {
  it('says which service the stored key is sent to', async () => {
    const { user, url } = await openWithService();
    await pasteInto(user, keyInput(), SERVICE_KEY);
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    await within(keyRegion()).findByText(
      `Sent only to ${url}. Pictor asks you before it goes anywhere else.`,
    );
    await within(screen.getByRole('status', { name: 'Done' })).findByText('Key saved.');
  });

  it('is pasted into a masked field and afterwards only its fingerprint is shown', async () => {
    const { user, main } = await openWithService();
    expect(keyInput().getAttribute('type')).toBe('password');
    expect(keyInput().getAttribute('autocomplete')).toBe('off');
    await pasteInto(user, keyInput(), SERVICE_KEY);
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    await within(keyRegion()).findByText(/A key is stored\. Fingerprint: [0-9a-f]{12}/);
    expect(saves(main)).toEqual([
      { provider: 'pictor', key: SERVICE_KEY, allowWeakStorage: false },
    ]);
    expect(within(keyRegion()).getByText('Protected by the GNOME keyring.')).toBeTruthy();
    // The key itself is nowhere in the page, not even in a field's value.
    expect(document.body.innerHTML).not.toContain(SERVICE_KEY);
    expect(within(keyRegion()).queryByLabelText('API key')).toBeNull();
    expect(JSON.stringify(useAppStore.getState().serviceKeys?.pictor)).not.toContain(SERVICE_KEY);
  });

  it('has nowhere to check a key without an address: asks, and keeps it “not checked yet”', async () => {
    const { user, main } = await openWiredSettings();
    await pasteInto(user, keyInput(), 'sk-secret-value-123');
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
    expect(saves(main)).toEqual([
      { provider: 'pictor', key: 'sk-secret-value-123', allowWeakStorage: false },
      { provider: 'pictor', key: 'sk-secret-value-123', allowWeakStorage: false, skipCheck: true },
    ]);
  });

  it('warns plainly when the stored key is weakly protected', async () => {
    await openWithService({
      ...weak(),
      prepare: async (main) => {
        const stored = await main.runtime.saveKey(
          SERVICE_KEY,
          { allowWeakStorage: true, skipCheck: false },
          'pictor',
        );
        expect(stored.outcome).toBe('saved');
      },
    });
    expect(
      within(keyRegion()).getByText('Protected by Chromium’s basic text store (weak).'),
    ).toBeTruthy();
    expect(
      within(keyRegion()).getByText(/anyone who can read your files could read the key/),
    ).toBeTruthy();
  });

  it('asks before storing with weak protection, and stores only after consent', async () => {
    const { user, main } = await openWithService(weak());
    await pasteInto(user, keyInput(), SERVICE_KEY);
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    const question = await within(keyRegion()).findByRole('group', {
      name: 'Store with weaker protection?',
    });
    expect(within(question).getByRole('alert').textContent).toMatch(/effectively plain text/);
    // Nothing stored yet.
    expect(useAppStore.getState().serviceKeys?.pictor).toMatchObject({
      state: 'needs_consent',
      fingerprint: null,
    });
    expect(main.runtime.vault.status().fingerprint).toBeNull();
    await user.click(
      within(question).getByRole('button', { name: 'Store with weaker protection' }),
    );
    await within(keyRegion()).findByText(/A key is stored/);
    expect(saves(main)).toEqual([
      { provider: 'pictor', key: SERVICE_KEY, allowWeakStorage: false },
      { provider: 'pictor', key: SERVICE_KEY, allowWeakStorage: true },
    ]);
    expect(within(keyRegion()).getByText(/as you agreed/)).toBeTruthy();
  });

  it('asks about weak storage first, then saves unchecked weakly when the service cannot be asked', async () => {
    const { user, main } = await openWiredSettings({
      ...weak(),
      // The saved address: nothing listens there.
      prepare: async (wired) =>
        void (await wired.runtime.updateSettings(ownAddress(await unusedAddress()))),
    });
    await pasteInto(user, keyInput(), 'sk-weak');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    await user.click(
      await within(keyRegion()).findByRole('button', { name: 'Store with weaker protection' }),
    );
    const ask = await screen.findByRole('alertdialog', {
      name: 'Save the key without checking it?',
    });
    await user.click(within(ask).getByRole('button', { name: 'Save anyway' }));
    await within(keyRegion()).findByText(/A key is stored/);
    expect(saves(main).at(-1)).toEqual({
      provider: 'pictor',
      key: 'sk-weak',
      allowWeakStorage: true,
      skipCheck: true,
    });
  });

  it('declining consent stores nothing and empties the field', async () => {
    const { user, main } = await openWiredSettings(weak());
    await pasteInto(user, keyInput(), 'sk-weak');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    await user.click(await within(keyRegion()).findByRole('button', { name: 'Don’t store it' }));
    expect(keyInput()).toHaveProperty('value', '');
    expect(saves(main)).toHaveLength(1);
    expect(main.runtime.vault.status().fingerprint).toBeNull();
  });

  it('clearing the key brings back the demo banner', async () => {
    const { user, main } = await openWiredSettings({
      prepare: (wired) => connectService(wired, 'pictor').then(() => undefined),
    });
    expect(screen.queryByRole('region', { name: 'Demo service' })).toBeNull();
    await user.click(within(keyRegion()).getByRole('button', { name: 'Remove key' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove key' }),
    );
    await screen.findByRole('region', { name: 'Demo service' });
    expect(keyInput()).toBeTruthy();
    expect(main.runtime.vault.status().fingerprint).toBeNull();
  });

  it('a refused key shows the main process’s sentence', async () => {
    const { user, main } = await openWithService();
    await pasteInto(user, keyInput(), 'sk bad');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    expect((await within(keyRegion()).findByRole('alert')).textContent).toContain(
      'The key contains a space, line break or control character. Paste only the key itself.',
    );
    expect(saves(main)).toHaveLength(1);
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

  it('a refusal as a warning, without a tick', async () => {
    // A key stored unchecked that the service does not know; Test connection asks it, and main
    // keeps the service's 401 with the key.
    const { user, main } = await openWiredSettings({
      prepare: (wired) =>
        connectService(wired, 'pictor', { key: 'sk-unknown-key-123', checked: false }).then(
          () => undefined,
        ),
    });
    await user.click(within(keyRegion()).getByRole('button', { name: 'Test connection' }));
    await within(keyRegion()).findByText(
      new RegExp(`^The service refused this key when it was last checked, .*${year}`),
    );
    expect(keyRegion().querySelector('.key-stored__icon')).toBeNull();
    expect(main.runtime.vault.status().check?.outcome).toBe('refused');
  });
});

describe('saving a key checks it with the service first', () => {
  it('main checks the key with the saved address, then stores it with the tick', async () => {
    const { user, main } = await openWithService();
    await pasteInto(user, keyInput(), SERVICE_KEY);
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    await within(screen.getByRole('status', { name: 'Done' })).findByText('Key saved.');
    // The check is main's, in the same request: the page cannot mark a key as checked.
    expect(main.callsTo('service:testConnection')).toEqual([]);
    expect(saves(main)).toEqual([
      { provider: 'pictor', key: SERVICE_KEY, allowWeakStorage: false },
    ]);
    within(keyRegion()).getByText(/^The service accepted this key when it was checked/);
    expect(main.runtime.vault.status().check?.outcome).toBe('accepted');
  });

  // Fault: keys:set held in the contract's interceptor (to see the page while main asks the
  // service), then let through to main, which checks the key at the service.
  it('says it is checking the key while the service is asked', async () => {
    const { user, main } = await openWithService();
    const held = main.intercept.request['keys:set'].hold();
    await pasteInto(user, keyInput(), SERVICE_KEY);
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    expect(within(keyRegion()).getByText('Checking and saving the key…')).toBeTruthy();
    await waitFor(() => expect(held.waiting).toBe(1));
    expect(saves(main)).toHaveLength(0);
    held.release();
    await within(screen.getByRole('status', { name: 'Done' })).findByText('Key saved.');
    expect(within(keyRegion()).queryByText('Checking and saving the key…')).toBeNull();
    expect(saves(main)).toHaveLength(1);
  });

  it('refuses to store a key the service refused, saying why beside the field', async () => {
    const { user, main } = await openWithService();
    await pasteInto(user, keyInput(), 'sk-wrong-key-123');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    const alert = await within(keyRegion()).findByRole('alert');
    expect(alert.textContent).toMatch(
      /^The key was not saved\. The service at 127\.0\.0\.1:\d+ refused this key \(401\)\./,
    );
    expect(alert.textContent).not.toContain('in Settings');
    // Beside the field: the field says it is invalid and is described by the reason.
    expect(keyInput().getAttribute('aria-invalid')).toBe('true');
    expect(keyInput().getAttribute('aria-describedby')).toContain(alert.id);
    expect(useAppStore.getState().serviceKeys?.pictor?.state).toBe('not_set');
    expect(main.runtime.vault.status().fingerprint).toBeNull();
    // Typing another key takes the reason away.
    await user.type(keyInput(), 'x');
    expect(within(keyRegion()).queryByRole('alert')).toBeNull();
  });

  it('asks whether to save a key the service could not be asked about', async () => {
    let address = '';
    const { user, main } = await openWiredSettings({
      prepare: async (wired) => {
        address = await unusedAddress();
        await wired.runtime.updateSettings(ownAddress(address));
      },
    });
    await pasteInto(user, keyInput(), 'sk-offline-123');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    let ask = await screen.findByRole('alertdialog', { name: 'Save the key without checking it?' });
    expect(ask.textContent).toMatch(
      new RegExp(`Nothing answers at \\S*127\\.0\\.0\\.1:${address.split(':').at(-1)!}`),
    );
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(useAppStore.getState().serviceKeys?.pictor?.state).toBe('not_set');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Save key' }));
    ask = await screen.findByRole('alertdialog', { name: 'Save the key without checking it?' });
    await user.click(within(ask).getByRole('button', { name: 'Save anyway' }));
    await within(screen.getByRole('status', { name: 'Done' })).findByText(
      'Key saved, not checked yet.',
    );
    within(keyRegion()).getByText(/^Not checked yet/);
    expect(saves(main).at(-1)).toEqual({
      provider: 'pictor',
      key: 'sk-offline-123',
      allowWeakStorage: false,
      skipCheck: true,
    });
    expect(main.runtime.vault.status().fingerprint).not.toBeNull();
  });
});

describe('service', () => {
  // Named by its address's host once one is saved, so found by its place, not its name.
  const region = () => document.getElementById('settings-service-pictor')!;

  it('saves the base URL and shows a refusal as a sentence under the field', async () => {
    const { user, saved } = await openWiredSettings();
    const url = within(region()).getByLabelText('Service address (base URL)');
    await pasteInto(user, url, 'ftp://nope');
    await user.click(within(region()).getByRole('button', { name: 'Save' }));
    expect((await within(region()).findByRole('alert')).textContent).toContain(
      'must start with https://',
    );
    expect(url.getAttribute('aria-invalid')).toBe('true');
    await user.clear(url);
    await pasteInto(user, url, 'https://api.example.com');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(savedAddress(saved())).toBe('https://api.example.com'));
    expect(within(region()).queryByRole('alert')).toBeNull();
    // "Saved." is shown, not only spoken: the toast corner's polite region.
    await within(screen.getByRole('status', { name: 'Done' })).findByText('Saved.');
  });

  it('"Test connection" sits after the key field and reports what the service answered', async () => {
    const { user } = await openWithService();
    const button = within(keyRegion()).getByRole('button', { name: 'Test connection' });
    // After the key field, in the order of the page.
    expect(
      keyInput().compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(within(region()).queryByRole('button', { name: 'Test connection' })).toBeNull();
    await pasteInto(user, keyInput(), SERVICE_KEY);
    await user.click(button);
    expect(await within(keyRegion()).findByText(ACCEPTED)).toBeTruthy();
    // A key being entered that the service does not know.
    await user.clear(keyInput());
    await pasteInto(user, keyInput(), 'sk-wrong-key-123');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Test connection' }));
    const alert = await within(keyRegion()).findByRole('alert');
    expect(alert.textContent).toContain('refused this key (401).');
    await user.click(within(alert).getByText('Details'));
    expect(within(alert).getByText(/^HTTP 401/)).toBeTruthy();
  });

  it('tests the address in the field, saved or not; a key being entered only where it would be stored', async () => {
    const { user, main, saved } = await openWiredSettings();
    const { url: service } = await startDialect('pictor');
    const host = service.replace('http://', '');
    const url = within(region()).getByLabelText('Service address (base URL)');
    await pasteInto(user, url, `  ${service}/v1 `);
    const test = () =>
      user.click(within(keyRegion()).getByRole('button', { name: 'Test connection' }));
    await test();
    await within(keyRegion()).findByText(NO_KEY_THERE);
    await pasteInto(user, keyInput(), SERVICE_KEY);
    await test();
    // Main sends a key only to the saved address, where Save would store it.
    await within(keyRegion()).findByText(
      `Save the address ${host} first: a key being entered is tested with the saved service address, where it would be stored.`,
    );
    expect(main.callsTo('service:testConnection')).toEqual([
      { baseUrl: `${service}/v1` },
      { baseUrl: `${service}/v1`, key: SERVICE_KEY },
    ]);
    expect(main.callsTo('settings:update')).toEqual([]);
    await user.type(url, '{Enter}');
    await waitFor(() => expect(savedAddress(saved())).toBe(service));
    await test();
    await within(keyRegion()).findByText(ACCEPTED);
    // The field shows the address as main saved it.
    expect(main.callsTo('service:testConnection').at(-1)).toEqual({
      baseUrl: service,
      key: SERVICE_KEY,
    });
    // Testing stores nothing.
    expect(main.callsTo('keys:set')).toEqual([]);
    expect(main.runtime.vault.status().fingerprint).toBeNull();
  });

  it('clears the result as soon as the address or the key changes', async () => {
    const { user, main } = await openWithService();
    await pasteInto(user, keyInput(), SERVICE_KEY);
    const url = within(region()).getByLabelText('Service address (base URL)');
    const result = ACCEPTED;
    const testIt = async () => {
      await user.click(within(keyRegion()).getByRole('button', { name: 'Test connection' }));
      await within(keyRegion()).findByText(result);
    };
    await testIt();
    await user.type(url, '/');
    expect(within(keyRegion()).queryByText(result)).toBeNull();
    await testIt();
    await user.type(keyInput(), 'k');
    expect(within(keyRegion()).queryByText(result)).toBeNull();
    await user.type(keyInput(), '{Backspace}');
    await testIt();
    // Main says the stored key changed (one stored elsewhere, as another window would).
    await act(async () => void (await main.runtime.setKey('sk-other-key-123', false, 'pictor')));
    await waitFor(() => expect(within(keyRegion()).queryByText(result)).toBeNull());
  });

  // Fault: service:testConnection answered in main's place, once the address changed.
  it('drops an answer that arrives after the address changed', async () => {
    const { user, main } = await openWiredSettings();
    let answer: (report: RequestOutput<'service:testConnection'>) => void = () => undefined;
    const test = main.intercept.request['service:testConnection'];
    test.handle(() => new Promise((resolve) => (answer = resolve)));
    const url = within(region()).getByLabelText('Service address (base URL)');
    await user.click(within(keyRegion()).getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(test.inputs).toHaveLength(1));
    await pasteInto(user, url, 'https://other.example.com');
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
        void (await wired.runtime.updateSettings(ownAddress('https://api.example.com'))),
    });
    const url = within(region()).getByLabelText<HTMLInputElement>('Service address (base URL)');
    expect(url.value).toBe('https://api.example.com');
    await pasteInto(user, url, '/v1/');
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(main.callsTo('settings:update')).toEqual([ownAddress('https://api.example.com/v1/')]),
    );
    await waitFor(() => expect(url.value).toBe('https://api.example.com'));
    expect(savedAddress(saved())).toBe('https://api.example.com');
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
    const { user, main, saved } = await openWiredSettings();
    const before = main.runtime.galleryDir();
    const elsewhere = join(main.dir, 'elsewhere');
    await mkdir(elsewhere);
    main.env.PICTOR_E2E_CHOOSE_FOLDER = elsewhere;
    const region = screen.getByRole('region', { name: 'Gallery' });
    expect(within(region).getByText(before)).toBeTruthy();
    await user.click(within(region).getByRole('button', { name: 'Change…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the gallery folder' });
    await user.click(within(dialog).getByRole('button', { name: 'Move this library there' }));
    await waitFor(() => expect(saved().galleryDir).toBe(elsewhere));
    expect(main.runtime.galleryDir()).toBe(elsewhere);
    await waitFor(() => expect(within(region).getByText(elsewhere)).toBeTruthy());
    // The dialog cancelled this time.
    main.env.PICTOR_E2E_CHOOSE_FOLDER = undefined;
    await user.click(within(region).getByRole('button', { name: 'Change…' }));
    // The page never names a folder: main's dialog chooses, the page sends back only a ticket.
    await waitFor(() => expect(main.callsTo('library:pick')).toHaveLength(2));
    expect(main.callsTo('library:move')).toEqual([{ ticket: expect.any(String) }]);
    expect(main.callsTo('library:open')).toEqual([]);
    expect(screen.queryByRole('dialog', { name: 'Change the gallery folder' })).toBeNull();
    expect(main.callsTo('settings:update')).toEqual([]);
    expect(main.os.calls.filter((call) => call.action === 'chooseFolder')).toHaveLength(2);
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
      readFileSync(join(REPO_ROOT, 'renderer/i18n/locales/de.json'), 'utf8'),
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
