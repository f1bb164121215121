/** Records and history files for the history store's tests. */
import { join } from 'node:path';
import {
  HistoryStore,
  type HistoryStoreOptions,
} from '../../../../electron/core/history/history-store';
import type { ImageRecord, TaskRecord } from '../../../../shared/domain/task-record';
import type { Logger, LogFields } from '../../../../electron/ports/logger';
import { makeTaskRecord } from '../../../support/task-records';
import { fieldsOf, perTest } from '../../../support/per-test';
import { removeFolderSync, tempFolderSync } from '../../../support/temp-folders';

/** A valid completed record; `overrides` replace whole fields. */
export function makeRecord(overrides: Partial<TaskRecord> & { localId: string }): TaskRecord {
  const createdAt = overrides.createdAt ?? 1_700_000_000_000;
  return makeTaskRecord(
    {
      endpoint: 'https://images.example.test',
      account: 'acct-1234',
      request: {
        prompt: `prompt of ${overrides.localId}`,
        model: 'model-a',
        size: '1024x1024',
        quality: 'high',
      },
      updatedAt: createdAt + 10,
      submittedAt: createdAt + 1,
      finishedAt: createdAt + 9,
      watchStartedAt: createdAt + 1,
      polls: 3,
      lastPolledAt: createdAt + 8,
      images: [makeImage(0), makeImage(1)],
      folder: `2024/${overrides.localId}`,
      ...overrides,
    },
    createdAt,
  );
}

export function makeImage(index: number, overrides: Partial<ImageRecord> = {}): ImageRecord {
  return {
    index,
    url: `https://cdn.example.test/${index}.png`,
    state: 'saved',
    file: `img-${index}.png`,
    thumbnail: `img-${index}.thumb.webp`,
    width: 1024,
    height: 1024,
    bytes: 12_345,
    mime: 'image/png',
    attempts: 1,
    savedAt: 1_700_000_000_500,
    favourite: false,
    ...overrides,
  };
}

/** The history file a test works on, in a folder of its own; read inside a test (or a hook). */
export interface HistoryFile {
  /** The test's own temp folder (the file's). */
  readonly dir: string;
  /** `history.sqlite` in {@link dir}; not created until a store opens it. */
  readonly file: string;
}

/**
 * A fresh temporary folder (tests/support/temp-folders.ts) for every test of the file or describe block that calls this, removed
 * when the test ends, after the caller's own afterEach hooks (tests/support/per-test.ts): the one
 * set-up of the history's tests that open, break and reopen `history.sqlite` themselves. Creates
 * no database: the test's store does.
 */
export function historyFilePerTest(): HistoryFile {
  const made = perTest(
    'historyFilePerTest',
    () => {
      const dir = tempFolderSync('history');
      return { dir, file: join(dir, 'history.sqlite') };
    },
    ({ dir }) => removeFolderSync(dir),
  );
  return fieldsOf(made, ['dir', 'file']);
}

/**
 * {@link historyFilePerTest} with a store open on the file for every test (`options` as
 * HistoryStore.open takes them), closed when the test ends, after the caller's afterEach hooks and
 * before its folder is removed. One store a test, as the copies it replaced opened; `reopen` puts
 * another in its place (a test that writes an older file and opens it as today's Pictor would).
 */
export function historyStorePerTest(
  options?: HistoryStoreOptions,
): HistoryFile & { readonly store: HistoryStore; reopen(file?: string): HistoryStore } {
  const history = historyFilePerTest();
  const made = perTest(
    'historyStorePerTest',
    () => ({ ...history, store: HistoryStore.open(history.file, options) }),
    (open) => open.store.close(),
  );
  const reopen = {
    /** Closes the test's store and opens `file` (default the test's own) in its place. */
    reopen(file = history.file): HistoryStore {
      const open = made();
      open.store.close();
      open.store = HistoryStore.open(file, options);
      return open.store;
    },
  };
  return fieldsOf(made, ['dir', 'file', 'store'], reopen);
}

/** A logger that remembers what it was told. */
export function recordingLogger(): Logger & {
  readonly lines: { level: string; message: string; fields?: LogFields }[];
} {
  const lines: { level: string; message: string; fields?: LogFields }[] = [];
  const log = (level: string) => (message: string, fields?: LogFields) => {
    lines.push({ level, message, ...(fields === undefined ? {} : { fields }) });
  };
  return { lines, debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}
