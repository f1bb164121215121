/** What a command's refusal says on stderr, and the exit code that says what kind it is. */
import { UrlPolicyError } from '../core/service';
import { EngineInputError } from '../core/engine';
import { HistoryError } from '../core/history';
import { TriageError } from '../core/triage';
import { UsageError } from '../core/command-line';
import { CompareInputError } from '../core/compare';
import { EditInputError } from '../core/edit';
import { InputStoreError } from '../core/inputs';
import { describeThrown } from '../core/errors';
import { LibraryHeldError } from '../core/fs';
import { SettingsError } from '../core/settings';
import { WorkflowNameError, WorkflowSaveError } from '../core/workflows';
import type { CliIo } from './cli-io';
import { DEV_PROGRAM, EXIT, cliWording } from './cli-report';
import { terminalSafe } from './terminal-text';

/** A refusal thrown by a command: its sentence on stderr, and the exit code that says what kind. */
export function exitForThrown(error: unknown, io: CliIo): number {
  if (
    error instanceof UsageError ||
    error instanceof EngineInputError ||
    error instanceof CompareInputError ||
    error instanceof EditInputError ||
    error instanceof InputStoreError ||
    error instanceof WorkflowNameError
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
  if (error instanceof LibraryHeldError) {
    // Another Pictor process is moving the library: nothing was done; the same command later.
    io.stderr(`${terminalSafe(error.message)}\n`);
    return EXIT.library;
  }
  if (error instanceof SettingsError || error instanceof WorkflowSaveError) {
    // The app's settings file, which a send of inputs reads, is damaged: nothing was sent. Or
    // the data folder refused an imported workflow's file: nothing was changed.
    io.stderr(`${terminalSafe(error.message)}\n`);
    return EXIT.library;
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
