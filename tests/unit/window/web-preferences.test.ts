/**
 * Both of Pictor's windows, the main window and the hidden image window, carry every hardened
 * webPreference (electron/adapters/web-preferences.ts) as created, whatever each adds of its own;
 * and what each adds is what it says it adds. (The flags themselves are pinned by
 * window.test.ts, which lists the main window's every webPreference.)
 */
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeImageWindow, resetImageElectronFakes } from '../../fakes/electron-image-window';
import { ManualClock } from '../../fakes/manual-clock';

vi.mock(
  'electron',
  async () => (await import('../../fakes/electron-image-window')).fakeImageElectron,
);

const { HARDENED_WEB_PREFERENCES } = await import('../../../electron/adapters/web-preferences');
const { createMainWindow } = await import('../../../electron/window');
const { createChromiumImageEngine } =
  await import('../../../electron/adapters/chromium-image-engine');
const { IMAGE_PARTITION } = await import('../../../electron/adapters/image-renderer-session');

const engines: { dispose(): Promise<void> }[] = [];

beforeEach(() => {
  resetImageElectronFakes();
});

afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.dispose();
});

/** The webPreferences the last window was created with. */
function lastPreferences(): Record<string, unknown> {
  const win = FakeImageWindow.instances.at(-1);
  if (!win) throw new Error('no window created');
  return win.options['webPreferences'] as Record<string, unknown>;
}

/** The hidden image window, as its engine creates it for its first job. */
function imageWindowPreferences(): Record<string, unknown> {
  const engine = createChromiumImageEngine({
    pageRoot: join(tmpdir(), 'pictor-no-page'),
    preloadPath: '/app/dist-electron/image-preload.cjs',
    clock: new ManualClock(),
    jobTimeoutMs: 30_000,
    idleMs: 60_000,
  });
  engines.push(engine);
  const header = {
    format: 'png',
    width: 4,
    height: 4,
    orientation: 1,
    orientedWidth: 4,
    orientedHeight: 4,
  } as const;
  engine
    .thumbnail({ file: join(tmpdir(), 'none.png'), header, thumbnailSize: 4 })
    .catch(() => undefined);
  return lastPreferences();
}

describe('the hardened webPreferences', () => {
  it('are all carried by the main window, with its own preload, dialogs and spellcheck', () => {
    createMainWindow({
      preloadPath: '/p/preload.cjs',
      appUrl: 'pictor-app://app/',
      isPackaged: true,
    });
    const preferences = lastPreferences();
    expect(preferences).toMatchObject(HARDENED_WEB_PREFERENCES);
    expect(preferences).toEqual({
      ...HARDENED_WEB_PREFERENCES,
      preload: '/p/preload.cjs',
      safeDialogs: true,
      spellcheck: true,
      devTools: false,
    });
  });

  it('are all carried by the image window, with its own session and nothing else switched on', () => {
    const preferences = imageWindowPreferences();
    expect(preferences).toMatchObject(HARDENED_WEB_PREFERENCES);
    expect(preferences).toEqual({
      ...HARDENED_WEB_PREFERENCES,
      session: expect.objectContaining({ partition: IMAGE_PARTITION }),
      preload: '/app/dist-electron/image-preload.cjs',
      backgroundThrottling: false,
      disableDialogs: true,
      spellcheck: false,
      webgl: false,
      devTools: false,
    });
  });
});
