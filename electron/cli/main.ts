/**
 * Pictor's command-line front: the same core as the app, for scripts and people without a window.
 * `npm run -s cli -- help` lists the commands.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { UrlPolicyError } from '../core/service';
import { EngineInputError } from '../core/engine';
import { HistoryError } from '../core/history';
import { TriageError } from '../core/triage';
import { helpText, parseCommand } from './cli-args';
import { UsageError } from '../core/command-line';
import { DEV_PROGRAM, EXIT, cliWording } from './cli-report';
import { runCommand, type CliIo } from './commands';
import { selfTestCommand } from './self-test-command';
import { plainNodeImageEngine } from '../adapters/image-engines/plain-node-engine';
import { infoCommand } from './info-command';
import { runCostCommand } from './cost-commands';
import { isCostCommand } from './cost-args';
import { terminalSafe } from './terminal-text';
import { describeThrown } from '../core/errors';
import { runCompareCommand } from './compare-command';
import { parseCompare } from './compare-args';
import { CompareInputError } from '../core/compare';
import { modelsCommand, parseModels } from './models-command';
import { isImageCommand, parseImageCommand } from './edit-args';
import { runImageCommand } from './edit-command';
import { EditInputError } from '../core/edit';
import { InputStoreError } from '../core/inputs';
import { KEY_RUN, scrubKey } from '../core/secrets';

/**
 * `io` whose every line is scrubbed of SERVICE_API_KEY's value in any encoding (key-echo.ts): the
 * last guard behind every message that names what was typed (user-words.ts). A key shorter than
 * a run of the key's characters is left to those messages: it would match ordinary words.
 */
function keySafeIo(io: CliIo): CliIo {
  const key = io.env.SERVICE_API_KEY?.trim() ?? '';
  if (key.length < KEY_RUN) return io;
  return {
    ...io,
    stdout: (text) => io.stdout(scrubKey(text, key)),
    stderr: (text) => io.stderr(scrubKey(text, key)),
  };
}

export async function runCli(argv: readonly string[], given: CliIo): Promise<number> {
  const io = keySafeIo(given);
  try {
    // `compare` reads its own options (repeated --target, --prompt, --base-url PROVIDER=ORIGIN).
    const compare = argv[0] === 'compare' ? parseCompare(argv.slice(1), io.env) : null;
    if (compare !== null && 'help' in compare) {
      io.stdout(helpText(io.program ?? DEV_PROGRAM, 'compare'));
      return EXIT.ok;
    }
    if (compare !== null) return await runCompareCommand(compare, io);
    // `edit` and `upscale` read their own options (repeated --ref, --mask, --factor, --inputs).
    const first = argv[0];
    if (isImageCommand(first)) {
      const image = parseImageCommand(first, argv.slice(1), io.env);
      if ('help' in image) io.stdout(helpText(io.program ?? DEV_PROGRAM, first));
      return 'help' in image ? EXIT.ok : await runImageCommand(image, io);
    }
    if (first === 'models') {
      const models = parseModels(argv.slice(1));
      if ('help' in models) io.stdout(helpText(io.program ?? DEV_PROGRAM, 'models'));
      return 'help' in models ? EXIT.ok : modelsCommand(models, io.stdout);
    }
    const command = parseCommand(argv, io.env);
    if (command.name === 'help') {
      io.stdout(helpText(io.program ?? DEV_PROGRAM, command.topic));
      return EXIT.ok;
    }
    if (command.name === 'self-test') return await selfTestCommand(io);
    if (command.name === 'info') return await infoCommand(command, io);
    if (isCostCommand(command)) return await runCostCommand(command, io);
    return await runCommand(command, io);
  } catch (error) {
    return exitForThrown(error, io);
  }
}

/** A refusal thrown by a command: its sentence on stderr, and the exit code that says what kind. */
function exitForThrown(error: unknown, io: CliIo): number {
  if (
    error instanceof UsageError ||
    error instanceof EngineInputError ||
    error instanceof CompareInputError ||
    error instanceof EditInputError ||
    error instanceof InputStoreError
  ) {
    io.stderr(`${terminalSafe(cliWording(error.message))}\n`);
    if (error instanceof UsageError)
      io.stderr(`Run "${io.program ?? DEV_PROGRAM} help" for the commands and options.\n`);
    return EXIT.usage;
  }
  if (error instanceof UrlPolicyError) {
    // An address the URL policy refuses (plain http:// off this computer, another scheme):
    // refused before a byte was written, so "nothing was sent", as a blocked port is.
    io.stderr(`${terminalSafe(cliWording(error.message))}\n`);
    return EXIT.submitRefused;
  }
  if (error instanceof TriageError) {
    // A rating, tag or board the command named that the library cannot take: its sentence.
    io.stderr(`${terminalSafe(error.message)}\n`);
    return EXIT.usage;
  }
  if (error instanceof HistoryError) {
    // The library itself (damaged, from a newer Pictor, a disk that refuses writes): not a
    // mistake in the command line, and never "busy" (other Pictor processes share it).
    io.stderr(`${terminalSafe(error.message)}\n`);
    return EXIT.library;
  }
  const detail = describeThrown(error);
  io.stderr(
    `${terminalSafe(`Pictor hit an unexpected problem and stopped. Every task id is kept. (${detail})`)}\n`,
  );
  return EXIT.unexpected;
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
  const interrupt = new AbortController();
  process.once('SIGINT', () => interrupt.abort());
  process.once('SIGTERM', () => interrupt.abort());
  const code = await runCli(process.argv.slice(2), {
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    interrupt: interrupt.signal,
    // A checkout's plain Node: native sharp when it loads, else header-only (as generate uses).
    imageEngine: plainNodeImageEngine,
  });
  process.exitCode = code;
}
