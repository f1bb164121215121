/**
 * Settings' "Local servers": the other users' loopback servers Pictor may send to. Over main's real
 * handlers and settings: what the user types is checked and kept by main (`host:port`, each once),
 * and an address that is not a loopback server's is refused with main's sentence under the field.
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { showSettings, startWiredApp } from '../render-wired-app';

async function openWiredSettings() {
  const app = await startWiredApp();
  await showSettings();
  return { ...app, saved: () => app.main.runtime.settings.get() };
}

const field = () => screen.getByRole('textbox', { name: 'Local servers' }) as HTMLTextAreaElement;

describe('Local servers', () => {
  it('keeps the addresses as main spells them, one a line', async () => {
    const { user, saved } = await openWiredSettings();
    expect(saved().allowedLocalServers).toEqual([]);
    await user.type(
      field(),
      'http://127.0.0.1:8188/{Enter}{Enter}[[0::1]:9000{Enter}127.0.0.1:8188',
    );
    await user.tab();
    await waitFor(() =>
      expect(saved().allowedLocalServers).toEqual(['127.0.0.1:8188', '[::1]:9000']),
    );
    await waitFor(() => expect(field().value).toBe('127.0.0.1:8188\n[::1]:9000'));
  });

  it('shows main’s refusal of an address elsewhere, and keeps the list as it was', async () => {
    const { user, saved, main } = await openWiredSettings();
    await user.type(field(), '127.0.0.1:8188{Enter}gateway.example:443');
    await user.tab();
    expect(
      await screen.findByText(/Each allowed local server must be an address on this computer/),
    ).toBeTruthy();
    expect(field().getAttribute('aria-invalid')).toBe('true');
    expect(saved().allowedLocalServers).toEqual([]);
    expect(main.callsTo('settings:update')).toHaveLength(1);
  });
});
