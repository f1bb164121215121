/**
 * Cancelling main's question about sending the key to a new address is the user's choice, said
 * plainly, not a red error.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { englishText, sentence } from '../../../../shared/i18n/sentence';
import { startWiredApp } from '../render-wired-app';
import { ownAddress, savedAddress } from '../../../support/own-address';

describe('the service address, when the user keeps the key where it was', () => {
  it('says the address was not changed as a statement, not an error', async () => {
    // A real key stored for the first address (the real key handler), and the answer to main's
    // own question about sending it elsewhere: cancel (the OS stand-in, PICTOR_E2E_KEY_ORIGIN).
    const { user, main } = await startWiredApp({
      env: { PICTOR_E2E_KEY_ORIGIN: 'cancel' },
      prepare: async (m) => {
        await m.api.invoke('settings:update', ownAddress('https://api.one.example'));
        await m.api.invoke('keys:set', {
          provider: 'pictor',
          key: 'sk-secret-value-123',
          allowWeakStorage: false,
          skipCheck: true,
        });
      },
    });
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    // Named by the host of the address it has.
    const service = screen.getByRole('region', { name: 'api.one.example' });
    const field = within(service).getByLabelText('Service address (base URL)');
    await user.clear(field);
    await user.type(field, 'https://api.two.example');
    await user.click(within(service).getByRole('button', { name: 'Save' }));
    const note = await within(service).findByText(/The service address was not changed/);
    expect(note.textContent).toContain(
      englishText(
        sentence('error.settings.keyStaysWith', { from: 'api.one.example', to: 'api.two.example' }),
      ),
    );
    expect(note.closest('[role="status"]')).not.toBeNull();
    expect(within(service).queryByRole('alert')).toBeNull();
    expect(field.getAttribute('aria-invalid')).toBeNull();
    expect(note.closest('.message--error')).toBeNull();
    // Main asked its own question once, about the new address, and kept the old one and the key.
    expect(main.os.calls.filter((call) => call.action === 'confirmKeyOrigin')).toEqual([
      { action: 'confirmKeyOrigin', arg: 'https://api.two.example' },
    ]);
    expect(savedAddress(main.runtime.settings.get())).toBe('https://api.one.example');
    expect(main.runtime.vault.boundBaseUrl()).toBe('https://api.one.example');
  });

  it('shows a real refusal of the address as the error it is', async () => {
    // Main's own settings schema refuses the address.
    const { user, main } = await startWiredApp();
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    const service = screen.getByRole('region', { name: 'Image task service' });
    const field = within(service).getByLabelText('Service address (base URL)');
    await user.type(field, 'ftp://x');
    await user.click(within(service).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(main.callsTo('settings:update')).toHaveLength(1);
    expect(savedAddress(main.runtime.settings.get())).not.toBe('ftp://x');
  });
});
