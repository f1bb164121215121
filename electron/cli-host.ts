/**
 * The installed app as the `pictor` command (see cli/cli-invocation.ts): runs the CLI in the main
 * process with no app window, no single-instance lock and no app protocol, prints to the terminal
 * it was started from, and exits with the CLI's code. It shares the app's library (same data
 * folder) and the app's image engine: Chromium's codecs in the hidden sandboxed image renderer
 * (header-only when that cannot start), so `pictor self-test` checks this installation with the
 * app's own means, safeStorage for the key's encryption included, on the key store the app
 * chooses (main.ts passes adapters/linux-secret-service.ts' chooseKeyStore, the app's own call).
 */
import type { App, SafeStorage } from 'electron';
import type { CliIo, SelfTestHost } from './cli/cli-io';
import type { ProcessOutput } from './cli/main';
import type { EncryptionReport } from './core/self-test';
import { KeyPipeError, takeKeyPipe } from './cli/key-pipe';
import { takeKeyVariables } from './cli/key-variables';

/** What the command line needs of Electron's `app`. */
export type CliApp = Pick<App, 'exit' | 'whenReady' | 'getVersion' | 'on'> & {
  readonly dock?: Pick<NonNullable<App['dock']>, 'hide'>;
};

/** The Electron services the command line runs on. */
export interface CliServices {
  /** `pictor self-test` reports whether it can encrypt. */
  readonly safeStorage: Pick<
    SafeStorage,
    'isAsyncEncryptionAvailable' | 'getSelectedStorageBackend'
  >;
  /** Every command's image engine (the app's: main.ts); absent: the plain-Node one. */
  readonly imageEngine?: SelfTestHost['imageEngine'];
  /** `pictor self-test`'s verifier in the image renderer (the app's: main.ts). */
  readonly rendererVerifier?: SelfTestHost['rendererVerifier'];
  /**
   * Chooses the key store as the desktop app does (main.ts: adapters/linux-secret-service.ts'
   * chooseKeyStore, the app's own call), so `pictor self-test` reports the store the app uses;
   * called first, before anything waits for ready, when safeStorage reads its switch.
   */
  readonly chooseKeyStore: () => unknown;
}

/**
 * Whether safeStorage can encrypt here (it answers only once the app is ready), with the Linux
 * secret store Chromium chose: `basic_text` means no keyring, so nothing is really protected.
 * Asked asynchronously: the synchronous `isEncryptionAvailable()` reads the macOS keychain on the
 * main thread, where a keychain prompt nobody answers (a CI runner, another code identity's
 * item) would hold it, and self-test's own time limit with it, for ever.
 */
export async function encryptionReport(
  app: Pick<CliApp, 'whenReady'>,
  safeStorage: CliServices['safeStorage'],
  platform: NodeJS.Platform = process.platform,
): Promise<EncryptionReport> {
  await app.whenReady();
  const available = await safeStorage.isAsyncEncryptionAvailable();
  const backend = platform === 'linux' ? safeStorage.getSelectedStorageBackend() : undefined;
  return {
    state: available ? 'available' : 'unavailable',
    ...(backend ? { backend } : {}),
  };
}

/** Runs `args` through the CLI and ends the process with its exit code. */
export async function runAsCommandLine(
  app: CliApp,
  args: readonly string[],
  services: CliServices,
  given?: Omit<CliIo, 'interrupt' | 'program' | 'env'> & Partial<Pick<CliIo, 'env'>>,
): Promise<number> {
  // The keys the command reads, kept from every process started from here on (cli/key-variables.ts),
  // with those the Linux wrapper hands over through a pipe (cli/key-pipe.ts).
  let env: NodeJS.ProcessEnv;
  try {
    env = { ...takeKeyVariables(process.env), ...takeKeyPipe(process.env) };
  } catch (error) {
    if (!(error instanceof KeyPipeError)) throw error;
    // A command started the wrong way (a PICTOR_KEYS_FD that names no pipe): nothing runs.
    const { EXIT } = await import('./cli/cli-report');
    (given?.stderr ?? ((text: string) => void process.stderr.write(text)))(`${error.message}\n`);
    app.exit(EXIT.usage);
    return EXIT.usage;
  }
  // Before anything waits for ready: safeStorage reads `--password-store` when it starts.
  services.chooseKeyStore();
  // No Dock icon bouncing on macOS for a command run from a terminal.
  app.dock?.hide();
  // The image renderer's hidden window closes when idle; Electron's default would then quit the
  // app (all windows closed) in the middle of the command, with exit code 0.
  app.on('window-all-closed', () => undefined);
  const interrupt = new AbortController();
  const stop = () => interrupt.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Loaded only when asked for: the app's own start-up never pays for the CLI.
  const { EXIT_OUTPUT_CLOSED, processOutput, runCli } = await import('./cli/main');
  // The process's own streams: a reader that closes early (`pictor list | head`) ends the run
  // quietly (cli/main.ts).
  let output: ProcessOutput | null = null;
  let io: Omit<CliIo, 'interrupt' | 'program'>;
  if (given === undefined) {
    output = processOutput(interrupt);
    io = { env, stdout: output.stdout, stderr: output.stderr, caughtUp: output.caughtUp };
  } else io = { env, ...given };
  const ran = await runCli(args, {
    version: app.getVersion(),
    encryption: () => encryptionReport(app, services.safeStorage),
    ...(services.imageEngine ? { imageEngine: services.imageEngine } : {}),
    ...(services.rendererVerifier ? { rendererVerifier: services.rendererVerifier } : {}),
    ...io,
    interrupt: interrupt.signal,
    program: 'pictor',
  });
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  // app.exit ends the process at once: what still waits in a pipe's queue for a slow reader
  // (`pictor list --all | less`) would be lost past the 64 KiB the pipe holds.
  await output?.caughtUp(0);
  const code = output?.closed() ? EXIT_OUTPUT_CLOSED : ran;
  app.exit(code);
  return code;
}
