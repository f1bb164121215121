import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { startApp } from '../render-app';

describe('app shell', () => {
  it('shows a notice main sends while the app runs (notifications the system refused)', async () => {
    const { fake } = await startApp();
    act(() => fake.emit('app:notice', { notice: 'notifications_failed' }));
    const notice = await screen.findByRole('region', { name: 'Notice' });
    expect(notice.textContent).toContain('did not show Pictor’s notification');
  });

  it('says once that thumbnails wait when the image renderer could not start', async () => {
    const { fake } = await startApp();
    act(() => fake.emit('app:notice', { notice: 'thumbnails_unavailable' }));
    const notice = await screen.findByRole('region', { name: 'Notice' });
    expect(notice.textContent).toContain('saved without thumbnails for now');
    expect(notice.textContent).toContain('made the next time the gallery is shown');
  });

  it('says once that the window was reloaded after a crash, until hidden', async () => {
    const { user } = await startApp({
      prepare: (fake) => {
        fake.info = { ...fake.info, notices: ['window_recovered'] };
      },
    });
    const notice = screen.getByRole('region', { name: 'Notice' });
    expect(notice.textContent).toContain('Pictor’s window stopped unexpectedly and was reloaded.');
    await user.click(within(notice).getByRole('button', { name: 'Hide this notice' }));
    expect(screen.queryByRole('region', { name: 'Notice' })).toBeNull();
  });

  it('draws the gallery in the background once idle, so opening it has its first page', async () => {
    const idle = window.requestIdleCallback;
    const cancel = window.cancelIdleCallback;
    const waiting: Array<() => void> = [];
    window.requestIdleCallback = ((callback: () => void) => {
      waiting.push(callback);
      return waiting.length;
    }) as typeof window.requestIdleCallback;
    window.cancelIdleCallback = () => undefined;
    const views = () => [...document.querySelectorAll<HTMLElement>('.app__view')];
    try {
      const { fake, user } = await startApp();
      const listed = () => fake.calls.filter((call) => call.channel === 'gallery:list').length;
      await waitFor(() => expect(waiting.length).toBeGreaterThan(0));
      // Not before the window is idle.
      expect(listed()).toBe(0);
      expect(views()).toHaveLength(1);
      act(() => waiting.splice(0).forEach((callback) => callback()));
      await waitFor(() => expect(useAppStore.getState().galleryStatus).toBe('ready'));
      expect(listed()).toBe(1);
      // Drawn, but hidden until chosen; choosing it shows it without another first load.
      expect(views().map((view) => view.hidden)).toEqual([false, true]);
      const nav = screen.getByRole('navigation', { name: 'Main' });
      await user.click(within(nav).getByRole('button', { name: 'Gallery' }));
      expect(views().map((view) => view.hidden)).toEqual([true, false]);
      expect(useAppStore.getState().galleryStatus).toBe('ready');
    } finally {
      window.requestIdleCallback = idle;
      window.cancelIdleCallback = cancel;
    }
  });

  it('navigates between Tasks, Gallery and Settings', async () => {
    const { user } = await startApp();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('button', { name: 'Tasks' }).getAttribute('aria-current')).toBe(
      'page',
    );
    await user.click(within(nav).getByRole('button', { name: 'Settings' }));
    expect(await screen.findByRole('heading', { name: 'Settings', level: 1 })).toBeTruthy();
    expect(within(nav).getByRole('button', { name: 'Settings' }).getAttribute('aria-current')).toBe(
      'page',
    );
    await user.click(within(nav).getByRole('button', { name: 'Gallery' }));
    expect(useAppStore.getState().view).toBe('gallery');
    await user.click(within(nav).getByRole('button', { name: 'Tasks' }));
    // The tasks screen kept its state while hidden.
    expect(screen.getByRole('form', { name: 'New task' })).toBeTruthy();
  });

  it('first run: the demo banner explains, and one click opens "Connect a service"', async () => {
    const { user } = await startApp();
    const banner = screen.getByRole('region', { name: 'Demo service' });
    expect(banner.textContent).toContain(
      'You’re using the built-in demo service — images are generated locally on this computer. Connect your own image service to use it.',
    );
    await user.click(within(banner).getByRole('button', { name: 'Connect a service' }));
    const panel = await screen.findByRole('dialog', { name: 'Connect a service' });
    // The panel starts at its first question: which service.
    expect(document.activeElement).toBe(within(panel).getByRole('combobox', { name: 'Service' }));
    // Over the screen the user was on: nothing else moved.
    expect(useAppStore.getState().view).toBe('tasks');
  });

  it('the demo banner can be hidden, and shows only while the form’s service is the demo’s', async () => {
    const { user } = await startApp();
    const form = screen.getByRole('form', { name: 'New task' });
    const service = within(form).getByRole('combobox', { name: 'Service' });
    // Another service's tasks never go to the demo: its banner would be about another service.
    await user.selectOptions(service, 'fal');
    expect(screen.queryByRole('region', { name: 'Demo service' })).toBeNull();
    await user.selectOptions(service, 'pictor');
    const banner = await screen.findByRole('region', { name: 'Demo service' });
    await user.click(within(banner).getByRole('button', { name: 'Hide this notice' }));
    expect(screen.queryByRole('region', { name: 'Demo service' })).toBeNull();
  });

  it('keeps the demo banner hidden after a restart, and shows it when the app goes back to the demo', async () => {
    const first = await startApp();
    await first.user.click(
      within(screen.getByRole('region', { name: 'Demo service' })).getByRole('button', {
        name: 'Hide this notice',
      }),
    );
    first.unmount();
    useAppStore.setState(useAppStore.getInitialState(), true);

    const { fake } = await startApp();
    expect(screen.getByRole('form', { name: 'New task' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Demo service' })).toBeNull();
    act(() => fake.emit('app:demoChanged', { demo: false }));
    act(() => fake.emit('app:demoChanged', { demo: true }));
    expect(await screen.findByRole('region', { name: 'Demo service' })).toBeTruthy();
  });

  it('shows the offline banner while the network is away', async () => {
    const { fake } = await startApp();
    expect(screen.queryByRole('region', { name: 'Offline' })).toBeNull();
    act(() => fake.setOnline(false));
    expect(screen.getByRole('region', { name: 'Offline' }).textContent).toMatch(
      /carry on by themselves/,
    );
    expect(document.querySelector('.visually-hidden[role="status"]')!.textContent).toMatch(
      /offline/,
    );
    act(() => fake.setOnline(true));
    expect(screen.queryByRole('region', { name: 'Offline' })).toBeNull();
  });

  it('a key that cannot be read is shown above every screen with the way to fix it', async () => {
    const { user } = await startApp({
      prepare: (fake) => {
        fake.keyStatus = {
          state: 'decrypt_failed',
          fingerprint: 'abcdef123456',
          backend: 'keychain',
          weak: false,
          message: 'Your saved key could not be decrypted. Enter the key again.',
        };
      },
    });
    const banner = screen.getByRole('region', { name: 'API key' });
    expect(banner.textContent).toContain('Your saved key could not be decrypted.');
    await user.click(within(banner).getByRole('button', { name: 'Open Settings' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByLabelText('API key', { selector: 'input' })),
    );
  });

  it('menu "new prompt" shows the tasks and focuses the prompt', async () => {
    const { fake } = await startApp();
    act(() => useAppStore.getState().setView('settings'));
    act(() => fake.emit('menu:command', { command: 'new-prompt' }));
    expect(useAppStore.getState().view).toBe('tasks');
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Prompt' }));
  });

  it('a start-up failure is shown as a sentence', async () => {
    await startApp({
      prepare: (fake) =>
        fake.fail('key:getStatus', { message: 'The key store could not be read.' }, 1),
    });
    expect((await screen.findByRole('region', { name: 'Errors' })).textContent).toContain(
      'The key store could not be read.',
    );
  });
});
