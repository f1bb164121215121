/**
 * The app's updates start after its first window: until then the page sees an idle copy that
 * cannot install yet, a "Check now" waits for the service, and listeners move to it once it is
 * attached. The macOS signature is read only in a packaged macOS app with an update feed.
 */
import { describe, expect, it } from 'vitest';
import type { UpdateState } from '../../../shared/domain/update-state';
import { runningMacSignature } from '../../../electron/adapters/codesign';
import { lateUpdates } from '../../../electron/host/late-updates';
import type { UpdatesControl } from '../../../electron/ipc/update-handlers';
import { Emitter } from '../../../electron/ports/event';
import { silentLogger } from '../../../electron/ports/logger';

function fakeService(state: UpdateState) {
  const changed = new Emitter<UpdateState>({ name: 'updates', logger: silentLogger });
  const service: UpdatesControl = {
    state: () => state,
    onDidChange: (listener) => changed.event(listener),
    checkNow: async () => ({ ...state, status: 'checking' }),
    download: async () => state,
    restart: () => undefined,
    downloadLink: () => null,
  };
  return { service, fire: (next: UpdateState) => changed.fire(next) };
}

describe('lateUpdates', () => {
  it('is idle until the service is attached, then is the service', async () => {
    const late = lateUpdates();
    const seen: UpdateState[] = [];
    late.control.onDidChange((state) => void seen.push(state));
    expect(late.control.state()).toEqual({ status: 'idle', canInstall: false });
    const asked = late.control.checkNow();
    const { service, fire } = fakeService({ status: 'idle', canInstall: true });
    late.attach(service);
    expect(await asked).toEqual({ status: 'checking', canInstall: true });
    expect(late.control.state()).toEqual({ status: 'idle', canInstall: true });
    fire({ status: 'available', canInstall: true, version: '2.0.0' });
    expect(seen).toEqual([
      { status: 'idle', canInstall: true },
      { status: 'available', canInstall: true, version: '2.0.0' },
    ]);
  });

  it('stops telling a listener that was disposed', () => {
    const late = lateUpdates();
    const seen: UpdateState[] = [];
    const listening = late.control.onDidChange((state) => void seen.push(state));
    const { service, fire } = fakeService({ status: 'idle', canInstall: true });
    late.attach(service);
    listening.dispose();
    fire({ status: 'checking', canInstall: true });
    expect(seen).toHaveLength(1);
  });
});

describe('runningMacSignature', () => {
  const reads: string[] = [];
  const reader = {
    verify: async (bundle: string) => (reads.push(`verify ${bundle}`), { status: 0, output: '' }),
    display: async (bundle: string) => (
      reads.push(`display ${bundle}`),
      { status: 0, output: 'Authority=Developer ID Application: X\nTeamIdentifier=ABCDE12345\n' }
    ),
  };
  const running = (platform: NodeJS.Platform, feed: boolean) => ({
    platform,
    resourcesPath: '/Applications/Pictor.app/Contents/Resources',
    exists: (file: string) => feed && file.endsWith('app-update.yml'),
    reader,
  });

  it('reads nothing without an update feed, in development, or off macOS', async () => {
    expect(
      await runningMacSignature({ isPackaged: true }, running('darwin', false)),
    ).toBeUndefined();
    expect(
      await runningMacSignature({ isPackaged: false }, running('darwin', true)),
    ).toBeUndefined();
    expect(await runningMacSignature({ isPackaged: true }, running('win32', true))).toBeUndefined();
    expect(reads).toEqual([]);
  });

  it('reads the bundle’s signature in a packaged macOS app with a feed', async () => {
    expect(await runningMacSignature({ isPackaged: true }, running('darwin', true))).toBe('valid');
    expect(reads[0]).toBe('verify /Applications/Pictor.app');
  });
});
