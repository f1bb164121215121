/**
 * main.ts for the chromium host: the same AppRuntime, built from plain-Node adapters (JSON-file
 * stores, a test cipher, Node's fetch, a rotating log in <userDataDir>/logs), wired by the app's
 * own wireApp (electron/ipc/wire-app.ts) with the recording OS stand-ins. What electron/host does
 * with Electron only (menu, tray progress, notifications, the power monitor, the theme) is left
 * out; the wiring itself is not copied.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNodeFetch } from '../../../electron/adapters/node-fetch';
import { AppRuntime } from '../../../electron/app/app-runtime';
import { readAppEnvironment, runtimeOverrides } from '../../../electron/app/app-environment';
import { RotatingFileLogger } from '../../../electron/core/logging/rotating-file-logger';
import type { Emit, IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import type { Clock } from '../../../electron/ports/clock';
import type { ContentCredentialVerifier } from '../../../electron/ports/content-credential-verifier';
import type { ImageEngine } from '../../../electron/ports/image-engine';
import { wireApp, type AppWiring } from '../../../electron/ipc/wire-app';
import { JsonFileKv } from '../../../electron/adapters/json-file-kv';
import type { OsStandIns } from './os-stand-ins';
import { REPO_ROOT } from './repo-paths';
import { KEYRING_HELD_ENV, TestSecretCipher } from './test-cipher';
import { testImageEngine } from '../../support/image-engine';

export interface NodeMainOptions {
  readonly userDataDir: string;
  readonly galleryDir: string;
  /** The process environment the app would see (PICTOR_* overrides included). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly os: OsStandIns;
  readonly emit: Emit;
  /** The app's clock (the host's: app-clock.ts). */
  readonly clock: Clock;
  /** The host's image engine (the chromium host: the app's image renderer page in Chromium). */
  readonly imageEngine?: ImageEngine;
  /** The Content Credentials verifier, when not the core's own (the caller ends it). */
  readonly contentCredentials?: ContentCredentialVerifier;
  /** Where the page loads gallery files from (the harness's server), for stored inputs' addresses. */
  readonly galleryBase?: string;
}

/** The running "main process" of the chromium host. */
export interface NodeMain {
  readonly runtime: AppRuntime;
  /** The app's handlers, over the runtime's one core (moving the gallery changes its folder). */
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
    imageEngine: testImageEngine,
    dataDir: options.userDataDir,
    defaultGalleryDir: options.galleryDir,
    cipher: new TestSecretCipher(options.env[KEYRING_HELD_ENV] === '1'),
    settingsStore: new JsonFileKv(options.userDataDir, 'settings'),
    earlierVaultStore: new JsonFileKv(options.userDataDir, 'key-vault'),
    serviceVaultStore: (provider) => new JsonFileKv(options.userDataDir, `key-vault-${provider}`),
    fetch: createNodeFetch(options.env as NodeJS.ProcessEnv),
    // As desktop-start: this computer's plain-http servers through the core's judged transport.
    pinLocalServers: true,
    // This host's socket tables read before each loopback request, as the app does.
    localServers: {},
    clock: options.clock,
    logger,
    prompts: options.os.prompts,
    systemTrash: options.os.systemTrash,
    ...(options.imageEngine ? { imageEngine: options.imageEngine } : {}),
    ...(options.contentCredentials ? { contentCredentials: options.contentCredentials } : {}),
    ...runtimeOverrides(environment),
  });
}

export interface HarnessWiring {
  readonly os: OsStandIns;
  readonly emit: Emit;
  readonly version: string;
  readonly galleryBase?: string;
}

/** The app's wiring (wireApp) around a started runtime, with the OS stand-ins as the host. */
export function wireHarness(
  runtime: AppRuntime,
  { os, emit, version, galleryBase }: HarnessWiring,
): AppWiring {
  return wireApp({
    runtime,
    shell: os.shell,
    chooseFolder: os.chooseFolder,
    inputDialogs: os.inputDialogs,
    library: { dialogs: os.libraryDialogs, version },
    ...(galleryBase === undefined ? {} : { galleryBase }),
    copyText: os.copyText,
    info: () => ({ version, platform: process.platform, online: true }),
    emit,
  });
}

export async function startNodeMain(options: NodeMainOptions): Promise<NodeMain> {
  const logger = new RotatingFileLogger({
    dir: join(options.userDataDir, 'logs'),
    minimumLevel: 'debug',
    fallback: () => undefined,
  });
  const runtime = await startRuntime(options, logger);
  const redacting = runtime.redactKeyIn(logger);
  // The app's start does not wait for the keyring's first answer (desktop-start.ts); held here, it
  // never comes, and the log waits for the keys instead.
  if (options.env[KEYRING_HELD_ENV] === '1') redacting.catch(() => undefined);
  else await redacting;
  const wiring = wireHarness(runtime, {
    os: options.os,
    emit: options.emit,
    version: APP_VERSION,
    ...(options.galleryBase === undefined ? {} : { galleryBase: options.galleryBase }),
  });
  return {
    runtime,
    handlers: wiring.handlers,
    logger,
    async close() {
      await runtime
        .close()
        .catch((error: unknown) => logger.error('shutdown failed', { detail: String(error) }));
      wiring.dispose();
      await logger.close();
    },
  };
}
