import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { InMemoryCipher } from '../../../fakes/in-memory-cipher';
import { startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

/**
 * Main's real wiring, one runtime for the tests that change no setting and no key; what only the
 * Electron host sends (notices, the network's state, menu commands) is sent with `main.send`.
 */
const fileMain = sharedWiredMain();

describe('app shell', () => {
  it('shows a notice main sends while the app runs (notifications the system refused)', async () => {
    const { main } = await startWiredApp({ main: fileMain });
    await act(async () => main.send('app:notice', { notice: 'notifications_failed' }));
    const notice = await screen.findByRole('region', { name: 'Notice' });
    expect(notice.textContent).toContain('did not show Pictor’s notification');
  });

  it('says once that thumbnails wait when the image renderer could not start', async () => {
    const { main } = await startWiredApp({ main: fileMain });
    await act(async () => main.send('app:notice', { notice: 'thumbnails_unavailable' }));
    const notice = await screen.findByRole('region', { name: 'Notice' });
    expect(notice.textContent).toContain('saved without thumbnails for now');
    expect(notice.textContent).toContain('made the next time the gallery is shown');
  });

  it('says that the library holds tasks a newer Pictor made, kept and not shown', async () => {
    // The desktop host tells it when the history counts such tasks (host/desktop-start.ts).
    const { main } = await startWiredApp({ main: fileMain });
    await act(async () => main.send('app:notice', { notice: 'newer_tasks_kept' }));
    const notice = await screen.findByRole('region', { name: 'Notice' });
    expect(notice.textContent).toContain('tasks a newer version of Pictor made');
    expect(notice.textContent).toContain('kept as they are');
  });

  it('says once that the window was reloaded after a crash, until hidden', async () => {
    // The host kept the notice for the page's first question (electron/host/app-notices.ts).
    const { user } = await startWiredApp({ notices: ['window_recovered'] });
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
      const { main, user } = await startWiredApp({ main: fileMain });
      const listed = () => main.callsTo('gallery:list').length;
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
    const { user } = await startWiredApp({ main: fileMain });
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
    const { user } = await startWiredApp({ main: fileMain });
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

  // A main of its own: hiding the banner is kept in main's settings.
  it('the demo banner can be hidden, and shows only while the form’s service is the demo’s', async () => {
    const { user } = await startWiredApp();
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
    const first = await startWiredApp();
    await first.user.click(
      within(screen.getByRole('region', { name: 'Demo service' })).getByRole('button', {
        name: 'Hide this notice',
      }),
    );
    first.unmount();
    useAppStore.setState(useAppStore.getInitialState(), true);

    // The same main, restarted window: the choice was kept in main's settings.
    const { main } = await startWiredApp({ main: () => Promise.resolve(first.main) });
    expect(screen.getByRole('form', { name: 'New task' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Demo service' })).toBeNull();
    // The app leaves the demo (another service chosen) and goes back to it: main says so.
    await act(() => main.runtime.updateSettings({ provider: 'fal' }));
    await waitFor(() => expect(useAppStore.getState().demo).toBe(false));
    await act(() => main.runtime.updateSettings({ provider: 'pictor' }));
    expect(await screen.findByRole('region', { name: 'Demo service' })).toBeTruthy();
  });

  it('shows the offline banner while the network is away', async () => {
    const { main } = await startWiredApp({ main: fileMain });
    expect(screen.queryByRole('region', { name: 'Offline' })).toBeNull();
    await act(async () => main.send('network:changed', { online: false }));
    expect(screen.getByRole('region', { name: 'Offline' }).textContent).toMatch(
      /carry on by themselves/,
    );
    expect(document.querySelector('.visually-hidden[role="status"]')!.textContent).toMatch(
      /offline/,
    );
    await act(async () => main.send('network:changed', { online: true }));
    expect(screen.queryByRole('region', { name: 'Offline' })).toBeNull();
  });

  it('a key that cannot be read is shown above every screen with the way to fix it', async () => {
    // A key stored in main's vault that the OS's key store can no longer decrypt.
    const cipher = new InMemoryCipher({ backend: 'gnome_libsecret' });
    const { user } = await startWiredApp({
      runtime: { cipher },
      prepare: async (main) => {
        await main.runtime.setKey('sk-test-key-1234567890', false);
        cipher.decryptFault = 'throws';
        // Main reads the key for a request: the OS refuses to decrypt it.
        expect(await main.runtime.vault.readKey()).toBeNull();
      },
    });
    const banner = screen.getByRole('region', { name: 'API key' });
    // Main's own sentence for it.
    expect(banner.textContent).toContain(
      'Your saved key could not be decrypted (it may come from another computer or user account, or the keyring was reset). Enter the key again.',
    );
    await user.click(within(banner).getByRole('button', { name: 'Open Settings' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByLabelText('API key', { selector: 'input' })),
    );
  });

  it('a key of another service that cannot be read shows the same banner, leading to that key', async () => {
    const cipher = new InMemoryCipher({ backend: 'gnome_libsecret' });
    const { user } = await startWiredApp({
      runtime: { cipher },
      prepare: async (main) => {
        const fal = main.runtime.keys.vault('fal');
        await fal.setKey('fal-test-key-1234567890', {
          allowWeakStorage: false,
          baseUrl: 'https://queue.fal.run',
        });
        cipher.decryptFault = 'throws';
        expect(await fal.readKey()).toBeNull();
      },
    });
    const banner = screen.getByRole('region', { name: 'API key' });
    expect(banner.textContent).toContain('Your saved key could not be decrypted');
    await user.click(within(banner).getByRole('button', { name: 'Open Settings' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByLabelText(/fal\.ai/, { selector: 'input[type="password"]' }),
      ),
    );
  });

  it('menu "new prompt" shows the tasks and focuses the prompt', async () => {
    const { main } = await startWiredApp({ main: fileMain });
    act(() => useAppStore.getState().setView('settings'));
    await act(async () => main.send('menu:command', { command: 'new-prompt' }));
    expect(useAppStore.getState().view).toBe('tasks');
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Prompt' }));
  });

  // Fault: keys:getStatuses fails once at start (the contract's interceptor).
  it('a start-up failure is shown as a sentence', async () => {
    await startWiredApp({
      main: fileMain,
      prepare: (main) =>
        main.intercept.request['keys:getStatuses'].fail(
          { code: 'failed', message: 'The key store could not be read.' },
          1,
        ),
    });
    expect((await screen.findByRole('region', { name: 'Errors' })).textContent).toContain(
      'The key store could not be read.',
    );
  });
});
