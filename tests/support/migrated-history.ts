/**
 * A new history file without paying its migrations: a history created and migrated once per
 * process (or worker thread), closed, and copied wherever a test wants a new one. Migrating a new
 * database took most of a fresh library's cost (import-interrupt made 5 a test; key-echoes 60,
 * a fifth of that file's CPU). No migration writes a time, a random id or anything of the path,
 * and a closed database is one file (no write-ahead log beside it), so the copy is what the
 * test's own first open would have made there; its first open still runs the history's checks.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { HISTORY_FILE, HistoryStore } from '../../electron/core/history/history-store';
import { removeFolderSync, tempFolderSync } from './temp-folders';

/** The migrated file's bytes and mode, kept in memory: its folder is removed at once. */
let template: { readonly bytes: Buffer; readonly mode: number } | null = null;

function makeTemplate(): { readonly bytes: Buffer; readonly mode: number } {
  const dir = tempFolderSync('migrated-history');
  try {
    const file = join(dir, HISTORY_FILE);
    HistoryStore.open(file).close();
    const left = readdirSync(dir);
    if (left.length !== 1) throw new Error(`a closed history left ${left.join(', ')} beside it`);
    // Removed now, not at the process's exit: a vitest worker thread never sees that event, so
    // every thread of a run left its folder behind.
    return { bytes: readFileSync(file), mode: statSync(file).mode & 0o777 };
  } finally {
    removeFolderSync(dir);
  }
}

/** Writes a new, fully migrated, empty history file at `to` (its folder must exist). */
export function copyMigratedHistory(to: string): void {
  template ??= makeTemplate();
  writeFileSync(to, template.bytes, { mode: template.mode });
}

/**
 * Makes `dataDir` (private, as the core makes it) with a new migrated history in it, for a core
 * or a command opened on it next: a library its first open would have made, without paying for it.
 */
export async function newLibraryAt(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  copyMigratedHistory(join(dataDir, HISTORY_FILE));
}
