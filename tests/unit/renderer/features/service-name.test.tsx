/**
 * The user's own service is named by what the user calls it, and until they type a name by its
 * address's host: once an address is set the window never says "Image task service" (Settings'
 * heading, the service filter), in any language. A typed name wins; a cleared one falls back to
 * the host. The name is main's word: control and bidi characters are taken out before it is kept.
 * With no address at all, the catalogue's name in the shown language.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import { startWiredApp } from '../render-wired-app';
import { ownAddress } from '../../../support/own-address';

async function openSettings(baseUrl = 'https://images.example.com') {
  const app = await startWiredApp({
    prepare: async (main) => {
      await main.runtime.settings.update(ownAddress(baseUrl));
    },
  });
  act(() => useAppStore.getState().setView('settings'));
  await screen.findByRole('heading', { level: 1 });
  return { ...app, saved: () => app.main.runtime.settings.get() };
}

const nameField = (label = 'Name of this service') =>
  screen.getByLabelText<HTMLInputElement>(label);

afterEach(async () => {
  await act(() => applyLocale('en'));
});

describe('the user’s own service, named by the user', () => {
  it('is named by its address’s host until the user types a name, everywhere', async () => {
    await openSettings();
    expect(screen.getByRole('region', { name: 'images.example.com' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Image task service' })).toBeNull();
    // The empty field shows what the service is called meanwhile.
    expect(nameField().value).toBe('');
    expect(nameField().placeholder).toBe('images.example.com');
    act(() => useAppStore.getState().setView('tasks'));
    expect(await screen.findAllByRole('option', { name: 'images.example.com' })).not.toEqual([]);
    expect(screen.queryByRole('option', { name: 'Image task service' })).toBeNull();
  });

  it('takes a typed name over the host, and the host again once the name is cleared', async () => {
    const { user, saved } = await openSettings();
    // A typed name wins…
    await user.type(nameField(), 'Studio GPU{Enter}');
    await waitFor(() => expect(saved().serviceName).toBe('Studio GPU'));
    expect(await screen.findByRole('region', { name: 'Studio GPU' })).toBeTruthy();
    // …and a cleared one falls back to the host.
    await user.clear(nameField());
    await user.type(nameField(), '{Enter}');
    await waitFor(() => expect(saved().serviceName).toBe(''));
    expect(await screen.findByRole('region', { name: 'images.example.com' })).toBeTruthy();
  });

  it.each([
    ['https://gpu.local:8443/v1', 'gpu.local:8443'],
    ['https://images.example.com:443', 'images.example.com'],
    ['http://[::1]:8080', '[::1]:8080'],
    ['https://[2001:db8::7]', '[2001:db8::7]'],
    ['https://xn--bcher-kva.example', 'bücher.example'],
    ['https://bücher.example:8443', 'bücher.example:8443'],
  ])('names the service at %s by its host %s', async (baseUrl, host) => {
    await openSettings(baseUrl);
    expect(await screen.findByRole('region', { name: host })).toBeTruthy();
  });

  it('keeps a typed name without control or bidirectional characters, and refuses one over 60', async () => {
    const { user, saved, main } = await openSettings();
    await user.type(nameField(), 'My\u202E  renders\u200F{Enter}');
    await waitFor(() => expect(saved().serviceName).toBe('My renders'));
    expect(() => main.runtime.settings.update({ serviceName: 'x'.repeat(61) })).toThrow(
      'A service’s name must be text of at most 60 characters.',
    );
    expect(saved().serviceName).toBe('My renders');
  });

  it('in German and Arabic, is the host once an address is set, never the English generic name', async () => {
    await openSettings();
    for (const locale of ['de', 'ar'] as const) {
      await act(() => applyLocale(locale));
      expect(await screen.findByRole('region', { name: 'images.example.com' })).toBeTruthy();
      expect(document.body.textContent).not.toContain('Image task service');
      expect(document.body.textContent).not.toContain(
        locale === 'de' ? 'Bildaufgaben-Dienst' : 'خدمة مهام الصور',
      );
    }
  });

  it('with no address, is the catalogue’s name in the shown language', async () => {
    await startWiredApp();
    act(() => useAppStore.getState().setView('settings'));
    expect(await screen.findByRole('region', { name: 'Image task service' })).toBeTruthy();
    await act(() => applyLocale('de'));
    expect(await screen.findByRole('region', { name: 'Bildaufgaben-Dienst' })).toBeTruthy();
    await act(() => applyLocale('ar'));
    expect(await screen.findByRole('region', { name: 'خدمة مهام الصور' })).toBeTruthy();
  });
});
