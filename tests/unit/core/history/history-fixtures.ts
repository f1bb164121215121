/** Records and temp folders for the history store's tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ImageRecord, TaskRecord } from '../../../../shared/domain/task-record';
import type { Logger, LogFields } from '../../../../electron/ports/logger';
import { makeTaskRecord } from '../../../support/task-records';

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

/** A fresh folder under the OS temp dir and its cleanup. */
export function tempDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'pictor-history-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
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
