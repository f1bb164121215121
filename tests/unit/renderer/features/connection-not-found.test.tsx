/**
 * Test connection tells the truth about an address where no image service answers: a site on
 * loopback that answers 404 to everything (as a plain web server with nothing there does) is not
 * taken for an image service, for the user's own service and for fal.ai alike; Save, which asks
 * the same question first, stores nothing there without the user's word; a key saved anyway reads
 * "not checked yet", without a tick; each key went to its own site only. The built-in demo says
 * it needs no key. Over the real wiring (main's handlers and its real HTTP to the sites).
 * Was the journey tests/e2e/specs/24-connection.spec.ts: nothing in it needed a browser.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServers, serve, type TestServer } from '../../../support/http-servers';
import { savedAddress } from '../../../support/own-address';
import { showSettings, startWiredApp } from '../render-wired-app';

const KEY = 'sk-wired-connection-3f9a1c7d52';
const FAL_KEY = 'fal-wired-connection-8b2d61e4';

afterEach(closeServers);

/** A site that answers 404 to every request. */
function notFoundSite(): Promise<TestServer> {
  return serve((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Not Found');
  });
}

/** What Test connection and Save's question say of `site`. */
const notThere = (site: TestServer) => `No image service of this kind answers at ${site.origin}.`;

/** How many requests `site` saw carrying `key` in a header. */
const carried = (site: TestServer, key: string) =>
  site.requests.filter((request) => JSON.stringify(request.headers).includes(key)).length;

describe('Test connection against a site that answers 404', () => {
  it('says no image service of this kind answers there, and Save stores nothing without a word', async () => {
    const site = await notFoundSite();
    const { user, main } = await startWiredApp();
    await showSettings();
    const keys = screen.getByRole('region', { name: 'API key' });
    const test = () => user.click(within(keys).getByRole('button', { name: 'Test connection' }));

    // No address: the built-in demo service, which needs no key and says so.
    await test();
    await within(keys).findByText(/^The built-in demo service answers\. It needs no key/);

    const own = document.getElementById('settings-service-pictor')!;
    await user.type(
      within(own).getByLabelText('Service address (base URL)'),
      `${site.origin}{Enter}`,
    );
    await waitFor(() => expect(savedAddress(main.runtime.settings.get())).toBe(site.origin));
    await user.type(within(keys).getByLabelText('API key'), KEY);
    await test();
    const alert = await within(keys).findByRole('alert');
    expect(alert.textContent).toContain(notThere(site));
    expect(alert.textContent).not.toMatch(/accepted|task/);

    await user.click(within(keys).getByRole('button', { name: 'Save key' }));
    const ask = await screen.findByRole('alertdialog', {
      name: 'Save the key without checking it?',
    });
    expect(ask.textContent).toContain(notThere(site));
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(within(keys).queryByText(/^A key is stored/)).toBeNull();
    expect(main.runtime.vault.status().fingerprint).toBeNull();
    expect(carried(site, KEY)).toBeGreaterThan(0);
  });

  it('a fal.ai key saved anyway reads "not checked yet", and its Test connection says the same', async () => {
    const site = await notFoundSite();
    const elsewhere = await notFoundSite();
    const { user, main } = await startWiredApp({
      prepare: (main) =>
        main.runtime
          .updateSettings({ serviceBaseUrls: { fal: site.origin } })
          .then(() => undefined),
    });
    await showSettings();
    const fal = screen.getByRole('region', { name: 'fal.ai' });
    await user.type(within(fal).getByLabelText('fal.ai API key'), FAL_KEY);
    await user.click(within(fal).getByRole('button', { name: 'Save key' }));
    const ask = await screen.findByRole('alertdialog', {
      name: 'Save the key without checking it?',
    });
    expect(ask.textContent).toContain(notThere(site));
    await user.click(within(ask).getByRole('button', { name: 'Save anyway' }));
    await within(fal).findByText(/^Not checked yet:/);
    expect(within(fal).getByText(/^A key is stored/)).toBeTruthy();
    expect(within(fal).queryByText(/accepted this key/)).toBeNull();
    expect(fal.querySelector('.key-stored__icon')).toBeNull();
    expect(main.runtime.keys.vault('fal').status().state).toBe('ready');

    await user.click(within(fal).getByRole('button', { name: 'Test connection' }));
    expect((await within(fal).findByRole('alert')).textContent).toContain(notThere(site));
    // The key went to its own site only, and never back to the page.
    expect(carried(site, FAL_KEY)).toBeGreaterThan(0);
    expect(carried(elsewhere, FAL_KEY)).toBe(0);
    expect(document.body.innerHTML).not.toContain(FAL_KEY);
  });
});
