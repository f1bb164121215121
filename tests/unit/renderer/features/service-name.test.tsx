/**
 * The user's own service is named by what the user calls it: Settings offers its address's host,
 * one Save names it, and from then on the window says that name where it said "Image task
 * service" (Settings' heading, the service filter). The name is main's word: control and bidi
 * characters are taken out before it is kept. Unnamed, the catalogue's name in the shown language.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import { startWiredApp } from '../render-wired-app';

async function openSettings() {
  const app = await startWiredApp({
    prepare: async (main) => {
      await main.runtime.settings.update({ baseUrl: 'https://images.example.com' });
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
  it('offers the address’s host, and one Save names the service everywhere', async () => {
    const { user, saved } = await openSettings();
    // Not named yet: the catalogue's name.
    const region = screen.getByRole('region', { name: 'Image task service' });
    await waitFor(() => expect(nameField().value).toBe('images.example.com'));
    await user.click(
      within(nameField().closest('form')!).getByRole('button', { name: 'Use this name' }),
    );
    await waitFor(() => expect(saved().serviceName).toBe('images.example.com'));
    await waitFor(() => expect(region.getAttribute('aria-label')).toBe('images.example.com'));
    expect(screen.queryByRole('region', { name: 'Image task service' })).toBeNull();
    // The task list's service filter names it so too.
    act(() => useAppStore.getState().setView('tasks'));
    expect(await screen.findAllByRole('option', { name: 'images.example.com' })).not.toEqual([]);
    expect(screen.queryByRole('option', { name: 'Image task service' })).toBeNull();
  });

  it('keeps a typed name without control or bidirectional characters, and refuses one over 60', async () => {
    const { user, saved, main } = await openSettings();
    await user.clear(nameField());
    await user.type(nameField(), 'My\u202E  renders\u200F{Enter}');
    await waitFor(() => expect(saved().serviceName).toBe('My renders'));
    expect(() => main.runtime.settings.update({ serviceName: 'x'.repeat(61) })).toThrow(
      'A service’s name must be text of at most 60 characters.',
    );
    expect(saved().serviceName).toBe('My renders');
  });

  it('unnamed, is the catalogue’s name in the shown language', async () => {
    await openSettings();
    await act(() => applyLocale('de'));
    expect(await screen.findByRole('region', { name: 'Bildaufgaben-Dienst' })).toBeTruthy();
    await act(() => applyLocale('ar'));
    expect(await screen.findByRole('region', { name: 'خدمة مهام الصور' })).toBeTruthy();
  });
});
