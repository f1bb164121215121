/**
 * The update banner and the Updates setting, in the real app over the real wiring: the update
 * service is the app's own (electron/app/updates/update-service.ts) as the host builds it
 * (electron/host/app-updates.ts), over a stand-in for electron-updater that offers what the
 * test says; a held answer is held in the contract's interceptor.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../../electron/adapters/system-clock';
import { UpdateService } from '../../../../electron/app/updates/update-service';
import { silentLogger } from '../../../../electron/ports/logger';
import type { UpdateOffer, Updater, UpdaterCapability } from '../../../../electron/ports/updater';
import type { UpdateMode, UpdateState } from '../../../../shared/domain/update-state';
import { useAppStore } from '../../../../renderer/store/app-store';
import type { HeldRequests } from '../../../support/contract-interceptor';
import type { WiredApi } from '../../../support/wired-api';
import { startWiredApp, type WiredAppOptions } from '../render-wired-app';

const NOTES = 'Faster gallery\n• Safer search';
const OFFER: UpdateOffer = { version: '0.2.0', releaseNotes: NOTES };
const DOWNLOAD = 'https://github.com/pictor-app/pictor/releases/download/v0.2.0/Pictor-0.2.0.dmg';
const banner = () => screen.queryByRole('region', { name: 'Update' });

/** electron-updater's part, as the host's adapter gives it: what the feed offers, what was asked. */
class StandInUpdater implements Updater {
  offer: UpdateOffer | null = null;
  failure: Error | null = null;
  /** A download waits for this when set (to see the service's in-between state). */
  downloadGate: Promise<void> | null = null;
  downloads = 0;
  installs = 0;

  constructor(readonly capability: UpdaterCapability) {}

  check(): Promise<UpdateOffer | null> {
    return this.failure ? Promise.reject(this.failure) : Promise.resolve(this.offer);
  }

  async download(onProgress: (fraction: number) => void): Promise<void> {
    this.downloads += 1;
    onProgress(0.5);
    await this.downloadGate;
    onProgress(1);
  }

  installOnQuit(): void {}
  beforeQuit(): Promise<void> {
    return Promise.resolve();
  }

  quitAndInstall(): void {
    this.installs += 1;
  }
}

/** The host's update service over the stand-in, following main's settings as the app's does. */
function hostUpdates(capability: UpdaterCapability = { kind: 'install' }) {
  const updater = new StandInUpdater(capability);
  let mode: () => UpdateMode = () => 'download';
  const service = new UpdateService({
    updater,
    clock: systemClock,
    logger: silentLogger,
    mode: () => mode(),
  });
  /** Binds the service to main's settings (electron/host/app-updates.ts does it in the app). */
  const bind = (main: WiredApi) => {
    mode = () => main.runtime.settings.get().updateMode;
    main.runtime.settings.onDidChange(() => service.modeChanged());
  };
  /** The feed offers `offer`: the service checks (the schedule's or "Check now"'s check). */
  const offering = async (offer: UpdateOffer) => {
    updater.offer = offer;
    await act(() => service.checkNow());
  };
  return { updater, service, bind, offering };
}

type Host = ReturnType<typeof hostUpdates>;

/** The app over main with `host`'s update service; `prepare` runs once it is bound. */
function startWithUpdates(host: Host, options: WiredAppOptions = {}) {
  return startWiredApp({
    ...options,
    updates: host.service,
    prepare: async (main) => {
      host.bind(main);
      await options.prepare?.(main);
    },
  });
}

describe('update banner', () => {
  it('offers "Restart to update" with the release notes, saying running tasks resume', async () => {
    const host = hostUpdates();
    const { main, user } = await startWithUpdates(host);
    expect(banner()).toBeNull();
    await host.offering(OFFER);
    const region = await screen.findByRole('region', { name: 'Update' });
    expect(region.textContent).toContain('Pictor 0.2.0 is ready to install.');
    expect(region.textContent).toContain('they resume by themselves after the restart');
    await user.click(within(region).getByText('What’s new in 0.2.0'));
    expect(within(region).getByText(/Faster gallery/).textContent).toBe(NOTES);
    expect(main.callsTo('updates:restart')).toHaveLength(0);
    await user.click(within(region).getByRole('button', { name: 'Restart to update' }));
    expect(main.callsTo('updates:restart')).toHaveLength(1);
    await waitFor(() => expect(host.updater.installs).toBe(1));
  });

  it('shows an update that was ready before the page loaded', async () => {
    const host = hostUpdates();
    await startWithUpdates(host, { prepare: () => host.offering(OFFER) });
    expect((await screen.findByRole('region', { name: 'Update' })).textContent).toContain(
      'ready to install',
    );
  });

  // Fault: main's answer to updates:getState held in the contract's interceptor until after a
  // newer event.
  it('keeps a state main sent before it answered the first question (the event is newer)', async () => {
    let held: HeldRequests | null = null;
    const { main } = await startWiredApp({
      prepare: (wired) => void (held = wired.intercept.request['updates:getState'].hold(1)),
    });
    const ready: UpdateState = { status: 'ready', canInstall: true, ...OFFER, releaseNotes: NOTES };
    main.intercept.event['updates:changed'].inject(ready);
    await screen.findByRole('region', { name: 'Update' });
    // Main's own answer (no update service: nothing found) arrives after the event.
    await act(() => held!.pass(0));
    expect(main.callsTo('updates:getState')).toHaveLength(1);
    expect(banner()?.textContent).toContain('ready to install');
  });

  it('stays quiet while a found version downloads by itself', async () => {
    const host = hostUpdates();
    let release: () => void = () => undefined;
    host.updater.downloadGate = new Promise((resolve) => (release = resolve));
    await startWithUpdates(host);
    host.updater.offer = OFFER;
    const checked = host.service.checkNow();
    // Found, then downloading (half-way): nothing to say yet.
    await waitFor(() =>
      expect(useAppStore.getState().updates).toMatchObject({
        status: 'downloading',
        progress: 0.5,
      }),
    );
    expect(banner()).toBeNull();
    release();
    await act(() => checked);
    expect(await screen.findByRole('region', { name: 'Update' })).toBeTruthy();
  });

  it('asks before downloading when the user chose "Only check and tell me"', async () => {
    const host = hostUpdates();
    const { main, user } = await startWithUpdates(host, {
      prepare: async (wired) => void (await wired.runtime.updateSettings({ updateMode: 'notify' })),
    });
    await host.offering(OFFER);
    expect(host.updater.downloads).toBe(0);
    const region = await screen.findByRole('region', { name: 'Update' });
    await user.click(within(region).getByRole('button', { name: 'Download' }));
    expect(main.callsTo('updates:download')).toHaveLength(1);
    expect(host.updater.downloads).toBe(1);
    await waitFor(() =>
      expect(banner()?.textContent).toContain('Pictor 0.2.0 is ready to install.'),
    );
  });

  it('on a Linux package, says the package manager installs it and offers no restart', async () => {
    const host = hostUpdates({ kind: 'notify' });
    await startWithUpdates(host);
    await host.offering(OFFER);
    const region = await screen.findByRole('region', { name: 'Update' });
    expect(region.textContent).toContain('Install it with your package manager');
    expect(within(region).queryByRole('button', { name: 'Restart to update' })).toBeNull();
    expect(within(region).queryByRole('button', { name: 'Download' })).toBeNull();
    expect(host.updater.downloads).toBe(0);
  });

  it('on a Linux package with a download for it, offers "Get Pictor 0.2.0", which asks main to open it', async () => {
    const host = hostUpdates({ kind: 'notify' });
    const { main, user } = await startWithUpdates(host);
    await host.offering({ ...OFFER, downloadUrl: DOWNLOAD });
    const region = await screen.findByRole('region', { name: 'Update' });
    expect(region.textContent).toContain('Install it with your package manager');
    await user.click(within(region).getByRole('button', { name: 'Get Pictor 0.2.0' }));
    expect(main.callsTo('updates:openDownload')).toEqual([undefined]);
    // Main opens its own link; the page never learnt it.
    await waitFor(() =>
      expect(main.os.calls).toContainEqual({ action: 'openExternal', arg: DOWNLOAD }),
    );
  });

  it('on a Mac that cannot install, says why, and offers the download only when main has one', async () => {
    const host = hostUpdates({ kind: 'notify' });
    const { main, user } = await startWithUpdates(host, { platform: 'darwin' });
    await host.offering(OFFER);
    const region = await screen.findByRole('region', { name: 'Update' });
    expect(region.textContent).toContain('This copy cannot update itself');
    expect(region.textContent).not.toContain('package manager');
    expect(within(region).queryByRole('button', { name: /Get Pictor/ })).toBeNull();
    expect(within(region).queryByRole('button', { name: 'Download' })).toBeNull();
    await host.offering({ ...OFFER, downloadUrl: DOWNLOAD });
    await user.click(await within(banner()!).findByRole('button', { name: 'Get Pictor 0.2.0' }));
    expect(main.callsTo('updates:openDownload')).toHaveLength(1);
  });

  it('on an unsigned Windows build, says it cannot update itself and offers the installer', async () => {
    const host = hostUpdates({ kind: 'notify' });
    const { main, user } = await startWithUpdates(host, { platform: 'win32' });
    await host.offering({ ...OFFER, downloadUrl: DOWNLOAD });
    const region = await screen.findByRole('region', { name: 'Update' });
    expect(region.textContent).toContain('This copy cannot update itself (it is not signed');
    expect(region.textContent).toContain('download the new installer and run it');
    expect(region.textContent).not.toContain('package manager');
    expect(region.textContent).not.toContain('Applications');
    expect(within(region).queryByRole('button', { name: 'Download' })).toBeNull();
    await user.click(within(region).getByRole('button', { name: 'Get Pictor 0.2.0' }));
    expect(main.callsTo('updates:openDownload')).toEqual([undefined]);
  });

  it('hides on "Later" until another version is ready', async () => {
    const host = hostUpdates();
    const { main, user } = await startWithUpdates(host);
    await host.offering(OFFER);
    await user.click(
      within(await screen.findByRole('region', { name: 'Update' })).getByRole('button', {
        name: 'Later',
      }),
    );
    expect(banner()).toBeNull();
    // The host's next notice: a newer version ready (a running copy holds one ready download,
    // so the service here would not fetch another; the host's event is sent as it would be).
    act(() =>
      main.send('updates:changed', {
        status: 'ready',
        canInstall: true,
        version: '0.3.0',
        releaseNotes: NOTES,
      }),
    );
    expect((await screen.findByRole('region', { name: 'Update' })).textContent).toContain('0.3.0');
  });
});

describe('Updates setting', () => {
  async function openSettings(host?: Host, options: WiredAppOptions = {}) {
    const app = await (host ? startWithUpdates(host, options) : startWiredApp(options));
    act(() => useAppStore.getState().setView('settings'));
    await screen.findByRole('heading', { name: 'Settings', level: 1 });
    return app;
  }

  it('shows the one state the banner shows: main is asked once, however often Settings opens', async () => {
    const host = hostUpdates();
    const { main } = await openSettings(host, { prepare: () => host.offering(OFFER) });
    const line = await screen.findByText(/0\.2\.0 is ready to install/, {
      selector: '[role="status"]',
    });
    expect(line).toBeTruthy();
    act(() => useAppStore.getState().setView('tasks'));
    act(() => useAppStore.getState().setView('settings'));
    await screen.findByRole('heading', { name: 'Settings', level: 1 });
    expect(main.callsTo('updates:getState')).toHaveLength(1);
  });

  it('says clearly that a development copy has no updates, and cannot check', async () => {
    // Main as the harnesses and a development run build it: no update service.
    await openSettings();
    expect(
      await screen.findByText('Updates are not available in a development or test copy of Pictor.'),
    ).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Check now' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    // Nothing beside it says otherwise: no mode to choose, no "checks when it starts".
    expect(screen.queryByRole('group', { name: 'Updates' })).toBeNull();
    expect(screen.queryByText(/Pictor checks when it starts/)).toBeNull();
  });

  it.each([
    ['a Linux package', 'linux', /your package manager installs it/],
    ['an unsigned Windows build', 'win32', /not signed, so it cannot install updates itself/],
    ['a Mac build without its Developer ID', 'darwin', /not signed with its Developer ID/],
  ] as const)(
    'on %s, offers no "Download updates automatically" that it could not do',
    async (_, platform, hint) => {
      const host = hostUpdates({ kind: 'notify' });
      await openSettings(host, { platform });
      expect(await screen.findByText(hint)).toBeTruthy();
      expect(screen.queryByRole('group', { name: 'Updates' })).toBeNull();
      expect(screen.queryByLabelText('Download updates automatically')).toBeNull();
      expect(screen.getByText('Updates', { selector: '.field__label' })).toBeTruthy();
    },
  );

  it('saves "Only check and tell me", downloading automatically by default', async () => {
    const { main, user } = await openSettings(hostUpdates());
    const group = await screen.findByRole('group', { name: 'Updates' });
    expect(screen.getByText(/Pictor checks when it starts and once a day/)).toBeTruthy();
    expect(
      (within(group).getByLabelText('Download updates automatically') as HTMLInputElement).checked,
    ).toBe(true);
    await user.click(within(group).getByLabelText('Only check and tell me'));
    await waitFor(() => expect(main.runtime.settings.get().updateMode).toBe('notify'));
  });

  it('checks on request and shows a failure as one quiet sentence', async () => {
    const host = hostUpdates();
    // The feed cannot be reached.
    host.updater.failure = Object.assign(new Error('getaddrinfo ENOTFOUND updates.example'), {
      code: 'ENOTFOUND',
    });
    const { main, user } = await openSettings(host);
    await user.click(await screen.findByRole('button', { name: 'Check now' }));
    expect(main.callsTo('updates:check')).toHaveLength(1);
    expect(
      await screen.findByText(
        'Pictor could not reach its update server; it will try again tomorrow.',
      ),
    ).toBeTruthy();
  });

  it('on an unsigned Windows build: the hint says it is not signed, never "On Linux"', async () => {
    const host = hostUpdates({ kind: 'notify' });
    await openSettings(host, {
      platform: 'win32',
      prepare: () => host.offering({ ...OFFER, downloadUrl: DOWNLOAD }),
    });
    expect(await screen.findByText(/This copy of Pictor is not signed, so it cannot/)).toBeTruthy();
    expect(screen.queryByText(/On Linux/)).toBeNull();
    expect(screen.queryByText(/Developer ID/)).toBeNull();
  });

  it('on a Mac that cannot install: the hint says why, and "Get Pictor" opens the download', async () => {
    const host = hostUpdates({ kind: 'notify' });
    const { main, user } = await openSettings(host, {
      platform: 'darwin',
      prepare: () => host.offering({ ...OFFER, downloadUrl: DOWNLOAD }),
    });
    expect(await screen.findByText(/not signed with its Developer ID/)).toBeTruthy();
    expect(screen.queryByText(/On Linux/)).toBeNull();
    const group = screen.getByText(/not signed with its Developer ID/).parentElement as HTMLElement;
    await user.click(within(group).getByRole('button', { name: 'Get Pictor 0.2.0' }));
    expect(main.callsTo('updates:openDownload')).toHaveLength(1);
    await waitFor(() =>
      expect(main.os.calls).toContainEqual({ action: 'openExternal', arg: DOWNLOAD }),
    );
  });
});
