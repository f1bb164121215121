/**
 * `export`, `import` and `rebuild`: the core's long operations (core/operations, as the app runs
 * them) on the command line. Progress goes to stderr as one line per tenth, the summary to stdout;
 * Ctrl+C stops between files and keeps what was fully imported (the summary says so). A refused
 * archive is one sentence, exit 1; a library disk that cannot take the import (full, read-only),
 * or an export's archive that cannot be written (its folder missing, the disk full or read-only),
 * is the core's sentence, exit 5 (a disk refused the write), never an unexpected problem.
 */
import { findTask } from './task-ids';
import { lstat } from 'node:fs/promises';
import { shownPath, UsageError } from '../core/command-line';
import {
  ArchiveNotWrittenError,
  ArchiveRefusedError,
  isAbort,
  LibraryDiskError,
  type LibraryProgress,
} from '../core/library';
import type { PictorCore } from '../core/pictor-core';
import { EXIT } from './cli-report';
import type { CliIo } from './cli-io';
import { terminalSafe } from './terminal-text';
import { englishText } from '../../shared/i18n/sentence';
import { keyRemovedExportedSentence } from '../../shared/i18n/key-removed';
import { resolve } from 'node:path';
import { argumentsOf, required } from './cli-args';
import { commandHelp } from './command-help';
import { common } from './common-args';
import { runOnService } from './commands';
import { declareLibraryCommand } from './library-command';

/**
 * A line at each tenth of the way: enough to see it move, few enough for a log. Not a second
 * throttle: the core's runner limits how often progress arrives (on the clock); this picks which
 * of what arrives becomes a line, by how far it is, so a log gets at most eleven lines whatever
 * the library's size.
 */
function progressLines(io: CliIo): (progress: LibraryProgress) => void {
  let shown = -1;
  return ({ operation, done, total }) => {
    const tenth = total === 0 ? 10 : Math.floor((done * 10) / total);
    if (tenth === shown) return;
    shown = tenth;
    io.stderr(
      `${operation === 'export' ? 'Exporting' : 'Importing'}: ${done} of ${total} task(s)\n`,
    );
  };
}

async function exportCommand(
  core: PictorCore,
  file: string,
  taskIds: readonly string[],
  io: CliIo,
): Promise<number> {
  // Refused before any work: the core refuses an existing target too, but only when it puts the
  // finished archive in place (a race it must close), after reading the whole library.
  if (
    await lstat(file).then(
      () => true,
      () => false,
    )
  ) {
    throw new UsageError(
      `A file already exists at ${shownPath(file)}; Pictor does not replace it. Give another file name.`,
    );
  }
  let newer: ReadonlySet<string> | undefined;
  const localIds = taskIds.map((id) => {
    const record = findTask(core.history, id);
    // A task a newer Pictor made, named by its whole id: the export says why it is left out.
    if (record === undefined && (newer ??= new Set(core.history.newerTaskIds())).has(id.trim()))
      return id.trim();
    if (record === undefined)
      throw new UsageError(
        'A --task id is not in this library’s history (list shows each task’s id).',
      );
    return record.localId;
  });
  try {
    const summary = await core.operations.exportArchive(
      {
        target: file,
        ...(localIds.length > 0 ? { localIds } : {}),
        pictorVersion: io.version ?? io.env.npm_package_version ?? 'unknown',
      },
      { signal: io.interrupt, onProgress: progressLines(io) },
    );
    if (summary === null) return interrupted(io);
    for (const skip of summary.skipped)
      io.stderr(`${terminalSafe(`Left out ${skip.path}: ${skip.reason}`)}\n`);
    io.stdout(
      `${terminalSafe(`Exported ${summary.tasks} task(s) and ${summary.images} image(s) (${summary.bytes} bytes) to ${shownPath(summary.file)}.`)}\n`,
    );
    if (summary.keyRemoved > 0)
      io.stdout(`${englishText(keyRemovedExportedSentence(summary.keyRemoved))}\n`);
    return summary.skipped.length > 0 ? EXIT.imagesMissing : EXIT.ok;
  } catch (error) {
    if (error instanceof ArchiveNotWrittenError) {
      io.stderr(`${terminalSafe(error.message)}\n`);
      return EXIT.library;
    }
    if (!isAbort(error)) throw error;
    return interrupted(io);
  }
}

function interrupted(io: CliIo): number {
  io.stderr('Interrupted. No archive was written.\n');
  return EXIT.interrupted;
}

async function importCommand(core: PictorCore, source: string, io: CliIo): Promise<number> {
  // A test build's hold (import-hold.ts). The build fixes PICTOR_TEST_BUILD as a literal, '' in
  // every other build, which so has neither this branch nor the module.
  const hold =
    process.env.PICTOR_TEST_BUILD === '1'
      ? (await import('./import-hold')).importHold(io)
      : undefined;
  let summary;
  try {
    summary = await core.operations.importArchive(source, {
      signal: io.interrupt,
      onProgress: progressLines(io),
      ...(hold ? { beforeTask: hold } : {}),
    });
  } catch (error) {
    if (error instanceof ArchiveRefusedError) {
      // The sentence, and the entry it is about; never the ZIP reader's own words (its detail).
      const entry = error.entry === undefined ? '' : ` (Entry: ${error.entry})`;
      io.stderr(`${terminalSafe(`${error.message}${entry}`)}\n`);
      return EXIT.library;
    }
    if (error instanceof LibraryDiskError) {
      io.stderr(`${terminalSafe(error.message)}\n`);
      return EXIT.library;
    }
    if (systemCode(error) === 'ENOENT')
      throw new UsageError(`There is no file or folder at ${shownPath(source)}.`);
    throw error;
  }
  // Interrupted before it began: nothing was read.
  summary ??= {
    addedTasks: 0,
    addedImages: 0,
    duplicateTasks: 0,
    duplicateImages: 0,
    refused: [],
    cancelled: true,
    notes: [],
  };
  for (const refused of summary.refused)
    io.stderr(`${terminalSafe(`Refused ${refused.path}: ${refused.reason}`)}\n`);
  io.stdout(
    `Added ${summary.addedTasks} task(s) and ${summary.addedImages} image(s); skipped ${summary.duplicateImages} image(s) and ${summary.duplicateTasks} task(s) already in the library; refused ${summary.refused.length} file(s).\n`,
  );
  // What the library did not keep of the source's tags and boards (core/library/archive/import-triage.ts).
  for (const note of summary.notes) io.stdout(`${englishText(note)}\n`);
  if (summary.cancelled) {
    io.stderr(
      'Interrupted. What was imported before stays in the library; run the import again to finish.\n',
    );
    return EXIT.interrupted;
  }
  return summary.refused.length > 0 ? EXIT.imagesMissing : EXIT.ok;
}

function systemCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error ? String(error.code) : undefined;
}

/** Adds to the history the tasks the gallery's sidecars describe; Ctrl+C stops between batches. */
async function rebuildCommand(core: PictorCore, io: CliIo): Promise<number> {
  try {
    const { found, added, skipped, notes } = await core.operations.rebuild({
      signal: io.interrupt,
    });
    for (const skip of skipped)
      io.stderr(`${terminalSafe(`Skipped ${skip.path}: ${skip.reason}`)}\n`);
    // A note on the gallery's root ('.') is about the whole library: its sentence alone.
    for (const note of notes) {
      const line = note.path === '.' ? note.reason : `Read ${note.path}: ${note.reason}`;
      io.stderr(`${terminalSafe(line)}\n`);
    }
    io.stdout(`Found ${found} task(s) in the gallery; added ${added} to the history.\n`);
    return EXIT.ok;
  } catch (error) {
    if (!isAbort(error)) throw error;
    io.stderr('Interrupted. The tasks added so far stay; run rebuild again to finish.\n');
    return EXIT.interrupted;
  }
}

export const rebuild = declareLibraryCommand({
  name: 'rebuild',
  help: commandHelp(
    "rebuild                         re-import the gallery folder's sidecars into the history",
    ['library', 'verbose'],
  ),
  parse: ({ values, positionals }, env) => {
    argumentsOf('rebuild', positionals, 0);
    return { name: 'rebuild', common: common(values, env) };
  },
  run: (command, io) => runOnService(command, io, ({ core }) => rebuildCommand(core, io)),
});

export const exportLibrary = declareLibraryCommand({
  name: 'export',
  help: commandHelp(
    'export <file.zip> [--task ID]...  write the library (or the tasks named) to one archive',
    ['library', 'verbose'],
  ),
  own: ['task'],
  parse: ({ values, positionals }, env) => {
    const [file] = argumentsOf('export', positionals, 1);
    return {
      name: 'export',
      file: resolve(
        required(file, 'export needs the archive file to write, as in export library.zip.'),
      ),
      taskIds: (values.task ?? []).map((id) => required(id, '--task needs a task id.')),
      common: common(values, env),
    };
  },
  run: (command, io) =>
    runOnService(command, io, ({ core }) => exportCommand(core, command.file, command.taskIds, io)),
});

export const importLibrary = declareLibraryCommand({
  name: 'import',
  help: commandHelp(
    'import <file.zip | folder>      merge an export or a gallery folder into the library (never\n                                  overwrites; same task and same image bytes are one)',
    ['library', 'verbose'],
  ),
  parse: ({ values, positionals }, env) => {
    const [source] = argumentsOf('import', positionals, 1);
    return {
      name: 'import',
      source: resolve(required(source, 'import needs the archive or folder to import.')),
      common: common(values, env),
    };
  },
  run: (command, io) =>
    runOnService(command, io, ({ core }) => importCommand(core, command.source, io)),
});
