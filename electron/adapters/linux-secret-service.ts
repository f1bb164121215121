/**
 * Selects the Secret Service for safeStorage on Linux desktops Electron does not recognise (see
 * core/key-vault/linux-password-store.ts). Runs before `app.whenReady()`: Chromium reads
 * `--password-store` when it sets up safeStorage, after which a switch changes nothing.
 *
 * The probe asks the session bus whether `org.freedesktop.secrets` has an owner, with dbus-send,
 * else busctl; no shell, a short timeout, and no answer (no tool, no bus, a hung bus) means "cannot
 * tell", which leaves Electron's own choice.
 */
import { spawnSync, type SpawnSyncOptionsWithStringEncoding } from 'node:child_process';
import type { Logger } from '../ports/logger';
import {
  choosePasswordStore,
  hasPasswordStoreArgument,
  type PasswordStoreChoice,
} from '../core/key-vault';
import { systemErrorCode } from '../core/errors';

/** The slice of `child_process.spawnSync` the probe uses (tests inject their own). */
export type SpawnSyncText = (
  command: string,
  args: readonly string[],
  options: SpawnSyncOptionsWithStringEncoding,
) => { status: number | null; stdout: string; error?: Error };

/**
 * The bus's reply time limit: a session bus answers NameHasOwner in milliseconds, and this is paid
 * at start-up only when the bus hangs. The process itself is killed at twice that.
 */
export const PROBE_TIMEOUT_MS = 500;

const SECRETS = 'org.freedesktop.secrets';

/** Each tool, and how its reply to NameHasOwner reads. */
const PROBES: readonly { command: string; args: readonly string[]; answer: RegExp }[] = [
  {
    command: 'dbus-send',
    args: [
      '--session',
      '--print-reply=literal',
      `--reply-timeout=${PROBE_TIMEOUT_MS}`,
      '--dest=org.freedesktop.DBus',
      '/org/freedesktop/DBus',
      'org.freedesktop.DBus.NameHasOwner',
      `string:${SECRETS}`,
    ],
    answer: /^\s*boolean\s+(true|false)\s*$/m,
  },
  {
    command: 'busctl',
    args: [
      '--user',
      `--timeout=${PROBE_TIMEOUT_MS}ms`,
      'call',
      'org.freedesktop.DBus',
      '/org/freedesktop/DBus',
      'org.freedesktop.DBus',
      'NameHasOwner',
      's',
      SECRETS,
    ],
    answer: /^\s*b\s+(true|false)\s*$/m,
  },
];

/**
 * The variables a probe tool is given, no others: where to find it and how to reach the session
 * bus. The process's own environment may carry keys (the `pictor` command's SERVICE_API_KEY and
 * PICTOR_KEY_*, a user's other secrets); a tool that needs none of them gets none of them.
 */
const PROBE_VARIABLES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'DBUS_SESSION_BUS_ADDRESS',
  'XDG_RUNTIME_DIR',
  'DISPLAY',
  'XAUTHORITY',
] as const;

/** `env` cut down to {@link PROBE_VARIABLES}. */
function probeEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const name of PROBE_VARIABLES) {
    const value = env[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}

/** Whether a Secret Service runs on the session bus: true, false, or null when no tool could tell. */
export function secretServiceRunning(
  spawn: SpawnSyncText = spawnSync,
  env: NodeJS.ProcessEnv = process.env,
): boolean | null {
  const toolEnv = probeEnvironment(env);
  for (const probe of PROBES) {
    const result = spawn(probe.command, probe.args, {
      encoding: 'utf8',
      env: toolEnv,
      stdio: ['ignore', 'pipe', 'ignore'],
      // The tool's own timeout covers a slow bus; this covers a tool that hangs before asking.
      timeout: PROBE_TIMEOUT_MS * 2,
      killSignal: 'SIGKILL',
      maxBuffer: 64 * 1024,
      windowsHide: true,
    });
    // A hung tool means a hung bus: the next tool would hang on it too.
    if (isTimeout(result.error)) return null;
    if (result.error || result.status !== 0) continue;
    const answer = probe.answer.exec(result.stdout)?.[1];
    if (answer !== undefined) return answer === 'true';
  }
  return null;
}

function isTimeout(error: Error | undefined): boolean {
  return systemErrorCode(error) === 'ETIMEDOUT';
}

export interface SelectPasswordStoreOptions {
  readonly commandLine: {
    hasSwitch(name: string): boolean;
    appendSwitch(name: string, value?: string): void;
  };
  readonly platform: NodeJS.Platform;
  readonly env: NodeJS.ProcessEnv;
  readonly argv: readonly string[];
  readonly logger: Logger;
  /** The D-Bus probe; {@link secretServiceRunning} unless a test injects one. */
  readonly probe?: () => boolean | null;
}

/** Where {@link chooseKeyStore} reads its facts: this process's unless a test gives its own. */
export type KeyStoreFacts = Partial<
  Pick<SelectPasswordStoreOptions, 'platform' | 'env' | 'argv' | 'probe'>
>;

/**
 * The key store the desktop app and the `pictor` command both use: one function, called by both
 * before `app.whenReady()`, so `pictor self-test` reports the store the app encrypts the key
 * with (on sway, Hyprland or i3 the Secret Service where one runs, not `basic_text`).
 */
export function chooseKeyStore(
  app: { readonly commandLine: SelectPasswordStoreOptions['commandLine'] },
  logger: Logger,
  facts: KeyStoreFacts = {},
): PasswordStoreChoice {
  return selectLinuxPasswordStore({
    commandLine: app.commandLine,
    platform: facts.platform ?? process.platform,
    env: facts.env ?? process.env,
    argv: facts.argv ?? process.argv,
    logger,
    ...(facts.probe ? { probe: facts.probe } : {}),
  });
}

/** Decides, appends `--password-store` when the Secret Service should be used, and logs why. */
export function selectLinuxPasswordStore(options: SelectPasswordStoreOptions): PasswordStoreChoice {
  const { commandLine, env, logger } = options;
  const choice = choosePasswordStore(
    {
      platform: options.platform,
      env,
      userChoseStore:
        commandLine.hasSwitch('password-store') || hasPasswordStoreArgument(options.argv),
    },
    options.probe ?? (() => secretServiceRunning(spawnSync, env)),
  );
  if (choice.kind === 'use') {
    commandLine.appendSwitch('password-store', choice.store);
    logger.info('Secret Service found on an unrecognised desktop; safeStorage will use it', {
      desktop: env['XDG_CURRENT_DESKTOP'] ?? null,
      store: choice.store,
    });
  } else if (choice.reason === 'no_secret_service' || choice.reason === 'unknown') {
    logger.info('no Secret Service on an unrecognised desktop; safeStorage keeps its choice', {
      desktop: env['XDG_CURRENT_DESKTOP'] ?? null,
      probe: choice.reason,
    });
  }
  return choice;
}
