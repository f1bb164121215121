/**
 * The `updates:` channels through the real request path (sender check, the contract's zod
 * schemas, Result wrapping): the page can only ask; a URL, a path or a version it sends is
 * refused before the update service hears of it, and nothing main did not mean leaves in a state.
 */
import { describe, expect, it, vi } from 'vitest';
import type { UpdateState } from '../../../shared/domain/update-state';
import { UpdateService } from '../../../electron/app/updates/update-service';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { noUpdates, updateHandlers } from '../../../electron/ipc/update-handlers';
import { silentLogger } from '../../../electron/ports/logger';
import type { Updater } from '../../../electron/ports/updater';
import { ManualClock } from '../../fakes/manual-clock';
import { ipcCaller } from '../../support/ipc';

function setup() {
  const updater: Updater = {
    capability: { kind: 'install' },
    check: vi.fn(() => Promise.resolve({ version: '0.2.0', releaseNotes: null })),
    download: vi.fn(() => Promise.resolve()),
    quitAndInstall: vi.fn(),
  };
  const service = new UpdateService({
    updater,
    clock: new ManualClock(),
    logger: silentLogger,
    mode: () => 'download',
  });
  const handlers = updateHandlers(service) as IpcHandlers;
  const ask = ipcCaller(handlers);
  return { updater, service, ask };
}

describe('updates: channels', () => {
  it.each([
    ['updates:check', { url: 'https://evil.example/feed/' }],
    ['updates:download', { url: 'https://evil.example/Pictor-Setup-9.9.9.exe' }],
    ['updates:download', '/tmp/evil.exe'],
    ['updates:restart', { path: '/tmp/evil.exe' }],
    ['updates:restart', { version: '9.9.9' }],
    ['updates:getState', 0],
  ] as const)('%s refuses input %j before the update service hears of it', async (channel, raw) => {
    const { updater, ask } = setup();
    const result = await ask(channel, raw);
    expect(result).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(updater.check).not.toHaveBeenCalled();
    expect(updater.download).not.toHaveBeenCalled();
    expect(updater.quitAndInstall).not.toHaveBeenCalled();
  });

  it('checks, downloads and restarts only when asked with no input', async () => {
    const { updater, ask } = setup();
    const restartTooEarly = await ask('updates:restart');
    expect(restartTooEarly).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: 'There is no downloaded update to install yet.' },
    });
    const checked = await ask('updates:check');
    expect(checked).toMatchObject({ ok: true, value: { status: 'ready', version: '0.2.0' } });
    expect(await ask('updates:restart')).toEqual({ ok: true, value: undefined });
    expect(updater.quitAndInstall).toHaveBeenCalledTimes(1);
  });

  it('sends the page only what the state schema names', async () => {
    const leaky = {
      ...noUpdates,
      state: () =>
        ({ ...noUpdates.state(), feedUrl: 'https://x', cacheDir: '/home/u/.cache' }) as UpdateState,
    };
    const result = await ipcCaller(updateHandlers(leaky))('updates:getState');
    expect(result).toEqual({
      ok: true,
      value: { status: 'unavailable', reason: 'development', canInstall: false },
    });
  });
});
