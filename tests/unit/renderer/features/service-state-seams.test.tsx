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
import type { DemoService } from '../../../../electron/demo-service/types';
import { useAppStore } from '../../../../renderer/store/app-store';
import { connectService, startDialect } from '../dialect-services';
import { clickScreen, startWiredApp } from '../render-wired-app';

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
    await clickScreen(user, /^Settings/);
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

describe('a service the computer cannot reach while it is online', () => {
  it('is said unreachable by the compose form and Settings after a call fails, until it answers again', async () => {
    let service: DemoService | null = null;
    const { main, user } = await startWiredApp({
      prepare: async (main) => {
        service = await connectService(main, 'pictor');
      },
    });
    const running = service as DemoService | null;
    if (running === null) throw new Error('no service');
    const { port } = new URL(running.url);
    const name = `127.0.0.1:${port}`;
    expect(chosenName()).toBe(name);
    // The service stops: the next submit finds its connection refused (nothing was sent).
    await running.close();
    const prompt = within(form()).getByRole('textbox', { name: 'Prompt' });
    await user.type(prompt, 'a heron{Enter}');
    await waitFor(() => expect(chosenName()).toBe(`${name} (unreachable)`));
    expect(main.runtime.core.serviceReach.unreachable()).toEqual([`http://${name}`]);
    await openSettings();
    const index = screen.getByRole('navigation', { name: 'Settings sections' });
    const entry = () =>
      within(within(index).getByRole('list', { name: 'Services' })).getAllByRole('link')[0]!;
    expect(entry().textContent).toBe(`${name} Service unreachable`);
    // The same service again at the same address: the next call's answer ends it.
    await startDialect('pictor', { port: Number(port) });
    act(() => useAppStore.getState().setView('tasks'));
    await user.type(within(form()).getByRole('textbox', { name: 'Prompt' }), 'a crane{Enter}');
    await waitFor(() => expect(chosenName()).toBe(name));
    await openSettings();
    expect(entry().textContent).toBe(`${name} Connected, key checked`);
  });

  it('is not said while the computer is offline: that is the offline state', async () => {
    const { main } = await startWiredApp({
      prepare: async (main) => {
        await connectService(main, 'pictor');
      },
    });
    const origin = new URL(main.runtime.settings.get().serviceBaseUrls.pictor ?? '').origin;
    act(() => main.send('network:changed', { online: false }));
    act(() => main.send('network:changed', { unreachable: [origin] }));
    await openSettings();
    const index = screen.getByRole('navigation', { name: 'Settings sections' });
    const entry = within(within(index).getByRole('list', { name: 'Services' })).getAllByRole(
      'link',
    )[0]!;
    await waitFor(() => expect(entry.textContent).toMatch(/Offline; key accepted/));
    act(() => main.send('network:changed', { online: true }));
    await waitFor(() => expect(entry.textContent).toMatch(/Service unreachable$/));
  });
});
