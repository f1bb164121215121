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

const LINK = 'https://updates.pictor.example/stable/Pictor-0.2.0-arm64.dmg';

/** The handlers over an update service whose updater can do `capability` and offers 0.2.0. */
function setupWith(capability: Updater['capability'], downloadUrl: string | null) {
  const updater: Updater = {
    capability,
    check: vi.fn(() =>
      Promise.resolve({
        version: '0.2.0',
        releaseNotes: null,
        ...(downloadUrl === null ? {} : { downloadUrl }),
      }),
    ),
    download: vi.fn(() => Promise.resolve()),
    installOnQuit: vi.fn(),
    beforeQuit: vi.fn(() => Promise.resolve()),
    quitAndInstall: vi.fn(),
  };
  const service = new UpdateService({
    updater,
    clock: new ManualClock(),
    logger: silentLogger,
    mode: () => 'download',
  });
  const shell = {
    openExternal: vi.fn(() => Promise.resolve({ ok: true as const, value: undefined })),
  };
  const ask = ipcCaller(updateHandlers(service, shell) as IpcHandlers);
  return { updater, service, ask, shell };
}

/** A copy that installs updates itself. */
const setup = () => setupWith({ kind: 'install' }, null);

/** A copy that can only tell (an unsigned Mac), whose feed offers 0.2.0 with a download. */
const notifySetup = (downloadUrl: string | null = LINK) =>
  setupWith({ kind: 'notify' }, downloadUrl);

describe('updates: channels', () => {
  it.each([
    ['updates:check', { url: 'https://evil.example/feed/' }],
    ['updates:download', { url: 'https://evil.example/Pictor-Setup-9.9.9.exe' }],
    ['updates:download', '/tmp/evil.exe'],
    ['updates:restart', { path: '/tmp/evil.exe' }],
    ['updates:restart', { version: '9.9.9' }],
    ['updates:getState', 0],
    ['updates:openDownload', { url: 'https://evil.example/Pictor-9.9.9.dmg' }],
    ['updates:openDownload', 'https://evil.example/Pictor-9.9.9.dmg'],
  ] as const)('%s refuses input %j before the update service hears of it', async (channel, raw) => {
    const { updater, ask, shell } = setup();
    const result = await ask(channel, raw);
    expect(result).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(shell.openExternal).not.toHaveBeenCalled();
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
    const shell = { openExternal: vi.fn() };
    const result = await ipcCaller(updateHandlers(leaky, shell))('updates:getState');
    expect(result).toEqual({
      ok: true,
      value: { status: 'unavailable', reason: 'development', canInstall: false },
    });
  });

  it('a copy that can only tell opens main’s download link, and the page never sees it', async () => {
    const { ask, shell } = notifySetup();
    const checked = await ask('updates:check');
    expect(checked).toEqual({
      ok: true,
      value: expect.objectContaining({
        status: 'available',
        canInstall: false,
        canOpenDownload: true,
        version: '0.2.0',
      }),
    });
    for (const sent of [checked, await ask('updates:getState')]) {
      const text = JSON.stringify(sent);
      expect(text).not.toContain('updates.pictor.example');
      expect(text).not.toContain('.dmg');
      expect(text).not.toContain('https');
    }
    expect(shell.openExternal).not.toHaveBeenCalled();
    expect(await ask('updates:openDownload')).toEqual({ ok: true, value: undefined });
    expect(shell.openExternal).toHaveBeenCalledTimes(1);
    expect(shell.openExternal).toHaveBeenCalledWith(LINK);
  });

  it('with no download to open, says so in a sentence and opens nothing', async () => {
    const sentence = 'There is no download of a new version to open';
    // Before any check; a copy that installs by itself; a feed with no file for this machine.
    const before = notifySetup();
    expect(await before.ask('updates:openDownload')).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringContaining(sentence) },
    });
    const installs = setup();
    await installs.ask('updates:check');
    expect(await installs.ask('updates:openDownload')).toMatchObject({ ok: false });
    const none = notifySetup(null);
    expect(await none.ask('updates:check')).toMatchObject({
      ok: true,
      value: { status: 'available', canOpenDownload: false },
    });
    expect(await none.ask('updates:openDownload')).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining(sentence) },
    });
    for (const rig of [before, installs, none])
      expect(rig.shell.openExternal).not.toHaveBeenCalled();
  });

  it('passes on the link check’s refusal (the port opens https links on its allow-list only)', async () => {
    const { ask, shell } = notifySetup();
    shell.openExternal.mockResolvedValueOnce({
      ok: false,
      error: { code: 'forbidden', message: 'Only https links open.' },
    } as never);
    await ask('updates:check');
    expect(await ask('updates:openDownload')).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
  });
});
