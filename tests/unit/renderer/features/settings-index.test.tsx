/**
 * Settings has an index: "Connect a service", every service with its state at a glance
 * (connected and checked, key not checked, key refused, no key, the built-in demo), then the
 * other sections; each entry brings its section into view with the focus. Each service's
 * section shows the same state beside its name.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { connectService, SERVICE_KEY } from '../dialect-services';
import { startWiredApp, type WiredAppOptions } from '../render-wired-app';

/** Settings over main's real settings and key statuses (tests/support/wired-api.ts). */
async function openWiredSettings(options: WiredAppOptions = {}) {
  return indexOf(await startWiredApp(options));
}

async function indexOf<App>(app: App) {
  act(() => useAppStore.getState().setView('settings'));
  await screen.findByRole('heading', { name: 'Settings', level: 1 });
  return { ...app, index: screen.getByRole('navigation', { name: 'Settings sections' }) };
}

describe('the Settings index', () => {
  it('shows every service’s state at a glance', async () => {
    const { index } = await openWiredSettings({
      prepare: async (main) => {
        // Each state as main comes to it: a key the service took when it was saved, one stored
        // without a check, and one its service refused when Test connection asked.
        await connectService(main, 'fal');
        await connectService(main, 'replicate', { checked: false });
        await connectService(main, 'dashscope', { key: 'not-this-account-key', checked: false });
        await main.api.invoke('service:testService', { provider: 'dashscope' });
      },
    });
    const services = within(index).getByRole('list', { name: 'Services' });
    expect(
      within(services)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      'Image task service Built-in demo',
      'fal.ai Connected, key checked',
      'Replicate Key not checked',
      'Alibaba Cloud DashScope Key refused',
      'Black Forest Labs No key',
      'ComfyUI No key needed',
    ]);
    // The same state beside each service's own name.
    within(screen.getByRole('region', { name: 'fal.ai' })).getByText('Connected, key checked');
    within(screen.getByRole('region', { name: 'Black Forest Labs' })).getByText('No key');
    within(screen.getByRole('region', { name: 'Image task service' })).getByText('Built-in demo');
  });

  it('reads main’s own key statuses: no key anywhere, today’s contract on the built-in demo', async () => {
    const { index } = await openWiredSettings();
    const services = within(index).getByRole('list', { name: 'Services' });
    expect(
      within(services)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      'Image task service Built-in demo',
      'fal.ai No key',
      'Replicate No key',
      'Alibaba Cloud DashScope No key',
      'Black Forest Labs No key',
      'ComfyUI No key needed',
    ]);
  });

  it('follows a key as it is saved: no key, then connected and checked', async () => {
    const { user, index } = await openWiredSettings({
      prepare: (main) => connectService(main, 'replicate', { key: null }).then(() => undefined),
    });
    const link = within(index).getByRole('link', { name: /^Replicate/ });
    expect(link.textContent).toBe('Replicate No key');
    const section = screen.getByRole('region', { name: 'Replicate' });
    await user.type(within(section).getByLabelText('Replicate API key'), SERVICE_KEY);
    await user.click(within(section).getByRole('button', { name: 'Save key' }));
    await waitFor(() => expect(link.textContent).toBe('Replicate Connected, key checked'));
  });

  it('jumps to a section and gives it the focus', async () => {
    const { user, index } = await openWiredSettings();
    await user.click(within(index).getByRole('link', { name: /^Black Forest Labs/ }));
    expect(document.activeElement).toBe(screen.getByRole('region', { name: 'Black Forest Labs' }));
    const others = within(index).getByRole('list', { name: 'Other settings' });
    await user.click(within(others).getByRole('link', { name: 'Library' }));
    expect(document.activeElement).toBe(screen.getByRole('region', { name: 'Library' }));
    // The page's address stays as it is: the index moves the view, not the window.
    expect(window.location.hash).toBe('');
  });

  it('opens "Connect a service"', async () => {
    const { user, index } = await openWiredSettings();
    await user.click(within(index).getByRole('button', { name: 'Connect a service' }));
    await screen.findByRole('dialog', { name: 'Connect a service' });
  });
});
