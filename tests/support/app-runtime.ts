/**
 * An AppRuntime as the app builds it, on in-memory key storage and real files in `dir`: the
 * history, the gallery and the demo service are the real ones. Integration tests override what
 * they are about (prompts, the demo's pace, the gallery folder).
 */
import { join } from 'node:path';
import { systemClock } from '../../electron/adapters/system-clock';
import { AppRuntime, type AppRuntimeOptions } from '../../electron/app/app-runtime';
import { silentLogger } from '../../electron/ports/logger';
import { InMemoryCipher } from '../fakes/in-memory-cipher';
import { InMemoryKv } from '../fakes/in-memory-kv';
import { bundledCoreWorkers } from './bundled-history-worker';
import { testImageEngine } from './image-engine';

export function testRuntimeOptions(
  dir: string,
  overrides: Partial<AppRuntimeOptions> = {},
): AppRuntimeOptions {
  return {
    dataDir: join(dir, 'data'),
    defaultGalleryDir: join(dir, 'gallery'),
    cipher: new InMemoryCipher({ backend: 'gnome_libsecret' }),
    settingsStore: new InMemoryKv(dir, 'settings'),
    earlierVaultStore: new InMemoryKv(dir, 'key-vault'),
    serviceVaultStore: (provider) => new InMemoryKv(dir, `key-vault-${provider}`),
    fetch: (url, init) => fetch(url, init),
    clock: systemClock,
    logger: silentLogger,
    demo: { durationMs: 100 },
    pollIntervalMs: 100,
    imageEngine: testImageEngine,
    ...bundledCoreWorkers(),
    ...overrides,
  };
}

/** {@link testRuntimeOptions} started. */
export function startTestRuntime(
  dir: string,
  overrides: Partial<AppRuntimeOptions> = {},
): Promise<AppRuntime> {
  return AppRuntime.start(testRuntimeOptions(dir, overrides));
}
