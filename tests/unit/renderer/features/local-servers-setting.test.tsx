/**
 * Settings' "Local servers": the other users' loopback servers Pictor may send to. Over main's real
 * handlers and settings: what the user types is checked and kept by main (`host:port`, each once),
 * and an address that is not a loopback server's is refused with main's sentence under the field.
 * An address is added only once the user agreed in main's own dialog (app/local-server-question.ts).
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { showSettings, startWiredApp } from '../render-wired-app';

async function openWiredSettings(env: Record<string, string> = {}) {
  const app = await startWiredApp({ env });
  await showSettings();
  return { ...app, saved: () => app.main.runtime.settings.get() };
}

const field = () => screen.getByRole('textbox', { name: 'Local servers' }) as HTMLTextAreaElement;

describe('Local servers', () => {
  it('keeps the addresses as main spells them, one a line, once main’s dialog agreed', async () => {
    const { user, saved, main } = await openWiredSettings({ PICTOR_E2E_LOCAL_SERVERS: 'allow' });
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
    expect(main.os.calls.filter(({ action }) => action === 'confirmLocalServers')).toEqual([
      { action: 'confirmLocalServers', arg: '127.0.0.1:8188 [::1]:9000' },
    ]);
  });

  it('keeps nothing the user did not agree to in main’s dialog, saying so', async () => {
    const { user, saved } = await openWiredSettings();
    await user.type(field(), '127.0.0.1:8188');
    await user.tab();
    expect(
      await screen.findByText(/Local servers were not changed: 127\.0\.0\.1:8188/),
    ).toBeTruthy();
    expect(saved().allowedLocalServers).toEqual([]);
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
