/**
 * The file an export writes: a new `.part` file beside the target, under a name of its own (so a
 * target whose name is as long as the folder allows still gets one), synced and put in place at
 * the end (renamed over the target, or linked so an existing file is refused), removed when
 * anything fails, the target untouched.
 *
 * Every step on this file (created, written, synced, put in place) that fails is the export's own
 * failure: {@link ArchiveNotWrittenError} names the file and why (its folder is gone, a file is
 * where a folder should be, the disk is full or read-only…). An image the export could not read
 * is never one: it is left out and named in the summary (export-library.ts).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, link, open, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sentence } from '../../../../shared/i18n/sentence';
import { systemErrorCode, UserFacingError } from '../../errors';
import { modeToKeep, removeQuietly } from '../../fs';
import { ArchiveNotWrittenError } from './archive-errors';

/** The archive being written: its bytes go in, then it is put in place or discarded. */
export interface ExportTarget {
  /** Bytes the file has not taken yet (memory waiting for the disk). */
  backlog(): number;
  /** Settles once every byte is in the `.part` file. @throws ArchiveNotWrittenError */
  readonly written: Promise<void>;
  /**
   * Syncs the `.part` file and puts it at the target: over it with `overwrite`, else only where
   * no file is. @throws ArchiveNotWrittenError; UserFacingError when the target exists.
   */
  publish(overwrite: boolean): Promise<void>;
  /** Stops writing and removes the `.part` file (after a failure or a cancellation). */
  discard(): Promise<void>;
}

/** `error` of a step on the archive's own file, as the export says it. */
function notWritten(target: string): (error: unknown) => never {
  return (error) => {
    throw new ArchiveNotWrittenError(target, error);
  };
}

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  await handle.sync().finally(() => handle.close());
}

async function putInPlace(part: string, target: string, overwrite: boolean): Promise<void> {
  if (overwrite) {
    // The archive it replaces keeps its permissions (a private one stays private).
    const kept = await modeToKeep(target);
    if (kept !== null) await chmod(part, kept).catch(notWritten(target));
    return rename(part, target).catch(notWritten(target));
  }
  try {
    await link(part, target);
  } catch (error) {
    if (systemErrorCode(error) === 'EEXIST') {
      throw new UserFacingError(sentence('error.library.exportTargetExists', { file: target }), {
        code: 'bad_input',
      });
    }
    throw new ArchiveNotWrittenError(target, error);
  }
  await removeQuietly(part);
}

/** Starts writing `source` (the archive's bytes) to a new `.part` file beside `target`. */
export function writeExportTarget(target: string, source: Readable): ExportTarget {
  const part = join(dirname(target), `pictor-export-${randomBytes(6).toString('hex')}.part`);
  const out = createWriteStream(part, { flags: 'wx', mode: 0o644 });
  const written = pipeline(source, out).catch(notWritten(target));
  // Awaited by the export; until then a failure must not count as unhandled.
  written.catch(() => undefined);
  return {
    backlog: () => source.readableLength + out.writableLength,
    written,
    async publish(overwrite) {
      await syncFile(part).catch(notWritten(target));
      await putInPlace(part, target, overwrite);
    },
    async discard() {
      out.destroy();
      await written.catch(() => undefined);
      await removeQuietly(part);
    },
  };
}
