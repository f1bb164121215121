/**
 * The library opened to read its history alone, as `list` reads it (list-command.ts): the history
 * and the gallery's paths, nothing else. No engine, service client, image engine, demo or the rest
 * of the core is built, nor are their modules loaded (one-record-start.test.ts): on a large
 * library the CPU of a one-record command is mostly the code it loads. `rate`, `flag` and `tag`
 * open it with the core's triage actions and their sidecar writes (library-triage.ts): still no
 * engine, service client or image engine. A command that
 * changes the library otherwise, or needs more of it, opens the whole core (commands.ts).
 */
import { join, resolve } from 'node:path';
import { streamLogger } from '../adapters/stream-logger';
import { ensurePrivateFolder, resolveInside } from '../core/fs';
import type { Gallery } from '../core/gallery';
import { HISTORY_FILE, HistoryStore } from '../core/history';
import type { Logger } from '../ports/logger';
import type { CliIo } from './cli-io';
import type { CommonOptions } from './common-args';
import { terminalSafe } from './terminal-text';

/** What a reading command sees of the library: its history and where its files are. */
export interface LibraryView {
  readonly history: HistoryStore;
  readonly gallery: Pick<Gallery, 'resolve'>;
}

/** The log of a command's core on stderr: errors, and with --verbose what it does. */
export function cliLogger(common: CommonOptions, io: CliIo): Logger {
  // Log fields can hold text from the service or a sidecar: shown, never interpreted.
  return streamLogger(
    (line) => io.stderr(`${terminalSafe(line.trimEnd())}\n`),
    common.verbose ? 'info' : 'error',
  );
}

/**
 * Opens the history of the library in `common`'s folders as the core does (its data folder made
 * 0700, the history migrated), runs `body` on it and closes it. The gallery's paths resolve as
 * the core's gallery resolves them (inside its folder, never out of it).
 */
export async function readLibrary<T>(
  common: CommonOptions,
  io: CliIo,
  body: (view: LibraryView) => T | Promise<T>,
): Promise<T> {
  // 0700: the history says what the user generated; other local users may exist.
  await ensurePrivateFolder(common.dataDir);
  const history = HistoryStore.open(join(common.dataDir, HISTORY_FILE), {
    logger: cliLogger(common, io),
  });
  // As the gallery takes its folder (gallery.ts): absolute, normalised.
  const root = resolve(common.galleryDir);
  try {
    // Awaited: a body that waits (a listing waiting on its reader) reads until it is done.
    return await body({
      history,
      gallery: { resolve: (relative) => resolveInside(root, relative) },
    });
  } finally {
    history.close();
  }
}
