/**
 * Pictor's command-line front: the same core as the app, for scripts and people without a window.
 * `npm run -s cli -- help` lists the commands.
 */
import { realpathSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { CliIo } from './cli-io';
import { keepCompiledCode, pruneCompileCache } from './compile-cache';
import { environmentKeys } from './key-variables';

/**
 * `io` whose every line is scrubbed, in any encoding (key-echo.ts), of every key the environment
 * gives the process (SERVICE_API_KEY, each PICTOR_KEY_<PROVIDER>: key-variables.ts): the last
 * guard behind every message that names what was typed (user-words.ts). A key shorter than a run
 * of the key's characters is left to those messages: it would match ordinary words. The
 * scrubber's code is loaded when there is a key, before the command's first line.
 */
async function keySafeIo(io: CliIo): Promise<CliIo> {
  const held = environmentKeys(io.env);
  if (held.length === 0) return io;
  const { KEY_RUN, scrubKey } = await import('../core/secrets/key-echo-face');
  const keys = held.filter((key) => key.length >= KEY_RUN);
  if (keys.length === 0) return io;
  return {
    ...io,
    stdout: (text) => io.stdout(scrubKey(text, keys)),
    stderr: (text) => io.stderr(scrubKey(text, keys)),
  };
}

/**
 * Runs the command line. Its code (the dispatcher, the command table, the key scrubber) is loaded
 * here, after a start from the shell has turned on the compiled-code cache (keepCompiledCode):
 * this file's own imports are compiled before it runs, so it imports Node's modules alone.
 */
export async function runCli(argv: readonly string[], given: CliIo): Promise<number> {
  return runScrubbed(argv, await keySafeIo(given));
}

/** {@link runCli} on an `io` already scrubbed of the keys (keySafeIo). */
async function runScrubbed(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { dispatch } = await import('./cli-dispatch');
    return await dispatch(argv, io);
  } catch (error) {
    // Loaded on a refusal only: the errors it tells apart come with the commands that throw them.
    const { exitForThrown } = await import('./thrown-exit');
    return exitForThrown(error, io);
  }
}

/**
 * The exit code of a command whose reader closed its end early (`pictor list --json | head -1`):
 * 128 + SIGPIPE's 13, what a shell reports for `git log | head`, as 130 (128 + SIGINT) is Ctrl+C's.
 */
export const EXIT_OUTPUT_CLOSED = 141;

/** The process's stdout and stderr for a command, and whether a reader closed one early. */
export interface ProcessOutput {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly closed: () => boolean;
  /** {@link CliIo.caughtUp}: waits for the readers (0: everything written so far). */
  readonly caughtUp: (leftAtMost: number) => Promise<void>;
}

/**
 * stdout and stderr for a command whose reader may close early (`| head`): Node ignores SIGPIPE,
 * so a write to a closed pipe fails with EPIPE, and an unhandled failure was a stack trace on
 * stderr. Here the first EPIPE, on either stream, ends the run as Ctrl+C does (`stop` is the
 * command's interrupt: it stops watching and keeps every id), and every later line of both
 * streams is dropped: nothing more is said, as `git log | head` says nothing. A pipe on Linux
 * fails the write itself (stream.errored, so a long synchronous listing stops at once); elsewhere
 * the stream's error event says so. Any other failure of a stream is thrown, as before.
 */
export function processOutput(
  stop: AbortController,
  streams: {
    readonly stdout: Writable;
    readonly stderr: Writable;
  } = process,
): ProcessOutput {
  let closed = false;
  const close = () => {
    closed = true;
    stop.abort();
  };
  const isClosedPipe = (error: unknown) =>
    (error as NodeJS.ErrnoException | null)?.code === 'EPIPE';
  const writer = (stream: NodeJS.WritableStream) => {
    stream.on('error', (error) => {
      if (!isClosedPipe(error)) throw error;
      close();
    });
    return (text: string) => {
      if (closed) return;
      stream.write(text);
      if (isClosedPipe((stream as { errored?: unknown }).errored)) close();
    };
  };
  /**
   * Once `stream`'s reader has taken all but `leftAtMost` bytes: an empty write's callback comes
   * after every write before it was taken, or failed (a closed reader: its EPIPE, heard above).
   */
  const caughtUpOn = (stream: Writable, leftAtMost: number) =>
    closed || stream.destroyed || stream.writableLength <= leftAtMost
      ? Promise.resolve()
      : new Promise<void>((resolve) => stream.write('', () => resolve()));
  return {
    stdout: writer(streams.stdout),
    stderr: writer(streams.stderr),
    closed: () => closed,
    caughtUp: async (leftAtMost) => {
      await caughtUpOn(streams.stdout, leftAtMost);
      await caughtUpOn(streams.stderr, leftAtMost);
    },
  };
}

/**
 * An error nothing caught (a throw in a callback, a rejected promise nobody awaited) is said as a
 * command's other lines are, through `io` (scrubbed of every key: keySafeIo) by exitForThrown,
 * and ends the run with its code. Node's own report of it wrote the error's message, cause and
 * stack straight to stderr, where a key in the words of an error from the network stack or of a
 * service passed as it was. The first such error is said; the process ends once it is.
 */
function sayUncaught(io: Promise<CliIo>, exit: (code: number) => void): void {
  let said = false;
  const say = (error: unknown) => {
    if (said) return;
    said = true;
    // Node's own code for an uncaught error, if even the words cannot be loaded.
    let code = 1;
    void (async () => {
      try {
        const { exitForThrown } = await import('./thrown-exit');
        code = exitForThrown(error, await io);
      } finally {
        exit(code);
      }
    })();
  };
  process.on('uncaughtException', say);
  process.on('unhandledRejection', say);
}

/** True when this file is the script Node was started with, also through a symlink. */
function invokedDirectly(script: string | undefined): boolean {
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (invokedDirectly(process.argv[1])) {
  const compileCache = keepCompiledCode(process.env);
  const interrupt = new AbortController();
  process.once('SIGINT', () => interrupt.abort());
  process.once('SIGTERM', () => interrupt.abort());
  const output = processOutput(interrupt);
  const io = keySafeIo({
    env: process.env,
    stdout: output.stdout,
    stderr: output.stderr,
    caughtUp: output.caughtUp,
    interrupt: interrupt.signal,
    // A checkout's plain Node: native sharp when it loads, else header-only (as generate uses).
    imageEngine: async () =>
      (await import('../adapters/image-engines/plain-node-engine')).plainNodeImageEngine(),
  });
  // What waits in the pipes' queues is written before the process ends (process.exit drops it).
  sayUncaught(io, (exit) => void output.caughtUp(0).then(() => process.exit(exit)));
  // Read when the process ends, not when the command returns: its last lines may still wait in
  // the pipe's queue then, and a reader that closes after it (a slow `| head -1`) is told by
  // their EPIPE, later (a command that returned 0 ended 0 when its reader had read a little).
  process.once('exit', () => {
    if (output.closed()) process.exitCode = EXIT_OUTPUT_CLOSED;
  });
  process.exitCode = await runScrubbed(process.argv.slice(2), await io);
  if (compileCache !== undefined) pruneCompileCache(compileCache, Date.now());
}
