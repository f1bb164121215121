/**
 * One fact, told alike wherever the user reads it (session 39's walk found each told two ways):
 * a service with an address but no key sends its tasks to the built-in demo, and the compose
 * form's Service box and Settings both say so; a key checked before the computer went offline is
 * not shown as a connection while it is offline; and the spending caps' screen says the demo is
 * free and no cap counts it (core/costs/cap-check.ts), so its absence from the caps' services is
 * explained where the user looks. Each over main's real settings, keys and caps.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { connectService } from '../dialect-services';
import { startWiredApp } from '../render-wired-app';

const form = () => screen.getByRole('form', { name: 'New task' });
const chosenName = () =>
  (within(form()).getByRole('combobox', { name: 'Service' }) as HTMLSelectElement)
    .selectedOptions[0]?.textContent;

function openSettings() {
  act(() => useAppStore.getState().setView('settings'));
  return screen.findByRole('heading', { name: 'Settings', level: 1 });
}

describe('a service whose tasks go to the built-in demo for want of a key', () => {
  it('is named so by the compose form and by Settings, from one state', async () => {
    await startWiredApp({
      prepare: async (main) => {
        await connectService(main, 'pictor', { key: null });
      },
    });
    expect(chosenName()).toMatch(/^127\.0\.0\.1:\d+ \(no key: demo\)$/);
    await openSettings();
    const index = screen.getByRole('navigation', { name: 'Settings sections' });
    const entry = within(within(index).getByRole('list', { name: 'Services' })).getAllByRole(
      'link',
    )[0]!;
    expect(entry.textContent).toMatch(/^127\.0\.0\.1:\d+ No key: Generate uses the built-in demo$/);
    expect(entry.textContent).not.toMatch(/No key$/);
  });
});

describe('the service badge while the computer is offline', () => {
  it('says offline and when the key was last checked, then connected again once online', async () => {
    const { main } = await startWiredApp({
      prepare: async (main) => {
        await connectService(main, 'fal');
      },
    });
    await openSettings();
    const fal = screen.getByRole('region', { name: 'fal.ai' });
    within(fal).getByText('Connected, key checked');
    act(() => main.send('network:changed', { online: false }));
    await waitFor(() =>
      within(fal).getByText(/^Offline; key accepted when last checked, \w+ \d+, \d{4}/),
    );
    expect(within(fal).queryByText('Connected, key checked')).toBeNull();
    act(() => main.send('network:changed', { online: true }));
    await waitFor(() => within(fal).getByText('Connected, key checked'));
  });
});

describe('the spending caps and the built-in demo', () => {
  it('says on the caps screen that the demo is free and no cap counts it', async () => {
    const { user } = await startWiredApp();
    await user.click(screen.getByRole('button', { name: /^Settings/ }));
    const caps = await screen.findByRole('form', { name: 'Spending caps' });
    const services = within(caps).getByLabelText('Service') as HTMLSelectElement;
    const names = [...services.options].map((option) => option.textContent);
    // The demo is no choice: core/costs/cap-check.ts passes every task that costs nothing.
    expect(names.some((name) => /demo/i.test(name ?? ''))).toBe(false);
    screen.getByText(
      'Tasks on the built-in demo are free: no cap counts them or stops them, so it is not listed here.',
    );
  });
});
