/** The update banner and the Updates setting, in the real app against the fake API. */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { UpdateState } from '../../../../shared/domain/update-state';
import { useAppStore } from '../../../../renderer/store/app-store';
import type { FakePictorApi } from '../../../fakes/fake-pictor-api';
import { startApp } from '../render-app';

const READY: UpdateState = {
  status: 'ready',
  canInstall: true,
  version: '0.2.0',
  releaseNotes: 'Faster gallery\n• Safer search',
};
const banner = () => screen.queryByRole('region', { name: 'Update' });

function announce(fake: FakePictorApi, state: UpdateState): void {
  fake.updates = state;
  act(() => fake.emit('updates:changed', state));
}

describe('update banner', () => {
  it('offers "Restart to update" with the release notes, saying running tasks resume', async () => {
    const { fake, user } = await startApp();
    expect(banner()).toBeNull();
    announce(fake, READY);
    const region = await screen.findByRole('region', { name: 'Update' });
    expect(region.textContent).toContain('Pictor 0.2.0 is ready to install.');
    expect(region.textContent).toContain('they resume by themselves after the restart');
    await user.click(within(region).getByText('What’s new in 0.2.0'));
    expect(within(region).getByText(/Faster gallery/).textContent).toBe(
      'Faster gallery\n• Safer search',
    );
    expect(fake.callsTo('updates:restart')).toHaveLength(0);
    await user.click(within(region).getByRole('button', { name: 'Restart to update' }));
    expect(fake.callsTo('updates:restart')).toHaveLength(1);
  });

  it('shows an update that was ready before the page loaded', async () => {
    await startApp({ prepare: (fake) => (fake.updates = READY) });
    expect((await screen.findByRole('region', { name: 'Update' })).textContent).toContain(
      'ready to install',
    );
  });

  it('keeps a state main sent before it answered the first question (the event is newer)', async () => {
    let answer: (state: UpdateState) => void = () => undefined;
    const { fake } = await startApp({
      prepare: (fake) =>
        fake.handle('updates:getState', () => new Promise((resolve) => (answer = resolve))),
    });
    announce(fake, READY);
    await screen.findByRole('region', { name: 'Update' });
    await act(async () => answer({ status: 'idle', canInstall: true }));
    expect(banner()?.textContent).toContain('ready to install');
  });

  it('stays quiet while a found version downloads by itself', async () => {
    const { fake } = await startApp();
    announce(fake, { status: 'available', canInstall: true, version: '0.2.0' });
    announce(fake, { status: 'downloading', canInstall: true, version: '0.2.0', progress: 0.5 });
    expect(banner()).toBeNull();
  });

  it('asks before downloading when the user chose "Only check and tell me"', async () => {
    const { fake, user } = await startApp({
      prepare: (fake) => (fake.settings = { ...fake.settings, updateMode: 'notify' }),
    });
    announce(fake, { status: 'available', canInstall: true, version: '0.2.0' });
    const region = await screen.findByRole('region', { name: 'Update' });
    await user.click(within(region).getByRole('button', { name: 'Download' }));
    expect(fake.callsTo('updates:download')).toHaveLength(1);
  });

  it('on a Linux package, says the package manager installs it and offers no restart', async () => {
    const { fake } = await startApp();
    announce(fake, { status: 'available', canInstall: false, version: '0.2.0' });
    const region = await screen.findByRole('region', { name: 'Update' });
    expect(region.textContent).toContain('Install it with your package manager');
    expect(within(region).queryByRole('button', { name: 'Restart to update' })).toBeNull();
    expect(within(region).queryByRole('button', { name: 'Download' })).toBeNull();
  });

  it('on a Linux package with a download for it, offers "Get Pictor 0.2.0", which asks main to open it', async () => {
    const { fake, user } = await startApp();
    announce(fake, {
      status: 'available',
      canInstall: false,
      canOpenDownload: true,
      version: '0.2.0',
    });
    const region = await screen.findByRole('region', { name: 'Update' });
    expect(region.textContent).toContain('Install it with your package manager');
    await user.click(within(region).getByRole('button', { name: 'Get Pictor 0.2.0' }));
    expect(fake.callsTo('updates:openDownload')).toEqual([undefined]);
  });

  it('on a Mac that cannot install, says why, and offers the download only when main has one', async () => {
    const { fake, user } = await startApp({
      prepare: (fake) => (fake.info = { ...fake.info, platform: 'darwin' }),
    });
    announce(fake, {
      status: 'available',
      canInstall: false,
      canOpenDownload: false,
      version: '0.2.0',
    });
    const region = await screen.findByRole('region', { name: 'Update' });
    expect(region.textContent).toContain('This copy cannot update itself');
    expect(region.textContent).not.toContain('package manager');
    expect(within(region).queryByRole('button', { name: /Get Pictor/ })).toBeNull();
    expect(within(region).queryByRole('button', { name: 'Download' })).toBeNull();
    announce(fake, {
      status: 'available',
      canInstall: false,
      canOpenDownload: true,
      version: '0.2.0',
    });
    await user.click(await within(region).findByRole('button', { name: 'Get Pictor 0.2.0' }));
    expect(fake.callsTo('updates:openDownload')).toHaveLength(1);
  });

  it('hides on "Later" until another version is ready', async () => {
    const { fake, user } = await startApp();
    announce(fake, READY);
    await user.click(
      within(await screen.findByRole('region', { name: 'Update' })).getByRole('button', {
        name: 'Later',
      }),
    );
    expect(banner()).toBeNull();
    announce(fake, { ...READY, version: '0.3.0' });
    expect((await screen.findByRole('region', { name: 'Update' })).textContent).toContain('0.3.0');
  });
});

describe('Updates setting', () => {
  async function openSettings(prepare?: (fake: FakePictorApi) => void) {
    const app = await startApp(prepare ? { prepare } : {});
    act(() => useAppStore.getState().setView('settings'));
    await screen.findByRole('heading', { name: 'Settings', level: 1 });
    return app;
  }

  it('shows the one state the banner shows: main is asked once, however often Settings opens', async () => {
    const { fake } = await openSettings((fake) => (fake.updates = READY));
    const line = await screen.findByText(/0\.2\.0 is ready to install/, {
      selector: '[role="status"]',
    });
    expect(line).toBeTruthy();
    act(() => useAppStore.getState().setView('tasks'));
    act(() => useAppStore.getState().setView('settings'));
    await screen.findByRole('heading', { name: 'Settings', level: 1 });
    expect(fake.callsTo('updates:getState')).toHaveLength(1);
  });

  it('says clearly that a development copy has no updates, and cannot check', async () => {
    await openSettings();
    expect(
      await screen.findByText('Updates are not available in a development or test copy of Pictor.'),
    ).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Check now' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('saves "Only check and tell me", downloading automatically by default', async () => {
    const { fake, user } = await openSettings();
    const group = screen.getByRole('group', { name: 'Updates' });
    expect(
      (within(group).getByLabelText('Download updates automatically') as HTMLInputElement).checked,
    ).toBe(true);
    await user.click(within(group).getByLabelText('Only check and tell me'));
    await waitFor(() => expect(fake.settings.updateMode).toBe('notify'));
  });

  it('checks on request and shows a failure as one quiet sentence', async () => {
    const { fake, user } = await openSettings((fake) => {
      fake.updates = { status: 'idle', canInstall: true };
    });
    await user.click(await screen.findByRole('button', { name: 'Check now' }));
    expect(fake.callsTo('updates:check')).toHaveLength(1);
    announce(fake, { status: 'error', canInstall: true, problem: 'offline', lastCheckedAt: 1 });
    expect(
      await screen.findByText(
        'Pictor could not reach its update server; it will try again tomorrow.',
      ),
    ).toBeTruthy();
  });

  it('on a Mac that cannot install: the hint says why, and "Get Pictor" opens the download', async () => {
    const { fake, user } = await openSettings((fake) => {
      fake.info = { ...fake.info, platform: 'darwin' };
      fake.updates = {
        status: 'available',
        canInstall: false,
        canOpenDownload: true,
        version: '0.2.0',
      };
    });
    expect(await screen.findByText(/not signed with its Developer ID/)).toBeTruthy();
    expect(screen.queryByText(/On Linux/)).toBeNull();
    const group = screen.getByRole('group', { name: 'Updates' }).parentElement as HTMLElement;
    await user.click(within(group).getByRole('button', { name: 'Get Pictor 0.2.0' }));
    expect(fake.callsTo('updates:openDownload')).toHaveLength(1);
  });
});
