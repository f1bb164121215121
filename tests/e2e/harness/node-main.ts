/**
 * main.ts for the chromium host: the same AppRuntime, handlers and wiring, built from plain-Node
 * adapters (JSON-file stores, a test cipher, Node's fetch, a rotating log in <userDataDir>/logs)
 * and the recording OS stand-ins. What main.ts does with Electron only (menu, tray progress,
 * notifications, the power monitor) is left out; the rest follows main.ts line for line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNodeFetch } from '../../../electron/adapters/node-fetch';
import { systemClock } from '../../../electron/adapters/system-clock';
import { AppRuntime } from '../../../electron/core/app-runtime';
import { readAppEnvironment, runtimeOverrides } from '../../../electron/core/app-environment';
import { RotatingFileLogger } from '../../../electron/core/logging/rotating-file-logger';
import type { PictorCore } from '../../../electron/core/pictor-core';
import { createAppHandlers } from '../../../electron/ipc/app-handlers';
import type { Emit, IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { taskItem } from '../../../electron/ipc/task-handlers';
import { JsonFileKv } from './json-file-kv';
import type { OsStandIns } from './os-stand-ins';
import { REPO_ROOT } from './repo-paths';
import { TestSecretCipher } from './test-cipher';

export interface NodeMainOptions {
  readonly userDataDir: string;
  readonly galleryDir: string;
  /** The process environment the app would see (PICTOR_* overrides included). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly os: OsStandIns;
  readonly emit: Emit;
}

/** The running "main process" of the chromium host. */
export interface NodeMain {
  readonly runtime: AppRuntime;
  /** Bound to the current core (rebound when the gallery moves). */
  readonly handlers: IpcHandlers;
  readonly logger: RotatingFileLogger;
  /** As the app quits: the engine stops (ids kept), the history closes, the demo stops. */
  close(): Promise<void>;
}

const APP_VERSION = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

async function startRuntime(options: NodeMainOptions, logger: RotatingFileLogger) {
  const environment = readAppEnvironment(options.env as NodeJS.ProcessEnv);
  return AppRuntime.start({
    dataDir: options.userDataDir,
    defaultGalleryDir: options.galleryDir,
    cipher: new TestSecretCipher(),
    settingsStore: new JsonFileKv(options.userDataDir, 'settings'),
    vaultStore: new JsonFileKv(options.userDataDir, 'key-vault'),
    fetch: createNodeFetch(options.env as NodeJS.ProcessEnv),
    clock: systemClock,
    logger,
    prompts: options.os.prompts,
    ...runtimeOverrides(environment),
  });
}

/** main.ts's wireCore: engine events to the window, then resume everything. */
function wireCore(core: PictorCore, emit: Emit): void {
  core.engine.subscribe(({ record }) => emit('task:updated', taskItem(core.engine, record)));
  core.engine.start({ resume: true });
}

export interface MainWiring {
  readonly os: OsStandIns;
  readonly emit: Emit;
  readonly version: string;
}

/**
 * main.ts's wiring around a started runtime: vault, settings and demo changes and the engine's
 * task updates to the window, the IPC handlers (bound again to the new core when the gallery
 * moves), and every unfinished task resumed. Returns the handlers, kept current.
 */
export function wireMain(runtime: AppRuntime, { os, emit, version }: MainWiring): IpcHandlers {
  runtime.vault.onChange((status) => emit('key:changed', status));
  runtime.settings.onChange((settings) => emit('settings:changed', settings));
  runtime.credentials.onDemoChange((demo) => emit('app:demoChanged', { demo }));
  const handlers = {} as IpcHandlers;
  const bind = (): void => {
    Object.assign(
      handlers,
      createAppHandlers({
        runtime,
        shell: os.shell,
        chooseFolder: os.chooseFolder,
        copyText: os.copyText,
        info: () => ({ version, platform: process.platform, online: true }),
        emit,
      }),
    );
  };
  bind();
  wireCore(runtime.core, emit);
  runtime.onCoreReplaced((core) => {
    wireCore(core, emit);
    bind();
    emit('gallery:changed', { reason: 'moved' });
  });
  return handlers;
}

export async function startNodeMain(options: NodeMainOptions): Promise<NodeMain> {
  const logger = new RotatingFileLogger({
    dir: join(options.userDataDir, 'logs'),
    minimumLevel: 'debug',
    fallback: () => undefined,
  });
  const runtime = await startRuntime(options, logger);
  await runtime.redactKeyIn(logger);
  const handlers = wireMain(runtime, { os: options.os, emit: options.emit, version: APP_VERSION });
  return {
    runtime,
    handlers,
    logger,
    async close() {
      await runtime
        .close()
        .catch((error: unknown) => logger.error('shutdown failed', { detail: String(error) }));
      await logger.close();
    },
  };
}
