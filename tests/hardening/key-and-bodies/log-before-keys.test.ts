/**
 * The desktop app's log before its keys are read. The log opens first thing (host/app-log.ts);
 * the keys whose text it redacts are read from the vault afterwards, when the OS's cipher answers
 * (desktop-start.ts `redactKeyIn`, not awaited: a keyring may take seconds), while the app goes
 * on starting: the engine resumes the library's unfinished tasks and the task event log writes a
 * line for each (its task id among the fields), and an uncaught error is logged as it comes. A
 * task kept under an id that carries the key (stored before ids were checked), or an error that
 * quotes a service's words with the key in them, was written to the file with the key in it.
 *
 * The app's log (openAppLog's options: awaitRedactor) holds its lines until the first redactor is
 * set and formats them then. Real files: the log is read back and scanned, by the test's own
 * encoders, for any run of the key in every encoding; the lines are there (the control), and
 * with their time of logging. A log whose keys cannot be read writes what it held when it
 * closes, as the patterns leave it.
 */
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  APP_LOG_OPTIONS,
  createTaskEventLog,
  RotatingFileLogger,
  secretRedactor,
} from '../../../electron/core/logging';
import { makeTaskRecord } from '../../support/task-records';
import { ENCODINGS, ENCODING_NAMES, keyScanner } from './key-encodings';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = 'sk-vault-7d1e0c94b2a8f63e15c7';
let dir: string;

beforeEach(async () => {
  dir = await tempFolder('log-before-keys');
});
afterEach(async () => {
  await removeFolder(dir);
});

/** What the app logs before its keys are read: a resumed task per encoding, an uncaught error. */
function startUp(logger: RotatingFileLogger): void {
  const logTask = createTaskEventLog(logger);
  for (const [n, encoding] of ENCODING_NAMES.entries()) {
    logTask(
      makeTaskRecord({
        localId: `local-${n}`,
        taskId: `task-${ENCODINGS[encoding]!(KEY, n)}`,
        status: 'processing',
      }),
    );
  }
  logger.error('uncaught exception', { detail: `Error: socket hang up ${KEY}` });
}

describe("the app's log before its keys are read", () => {
  it('writes no line with the key: the lines wait for the redactor', async () => {
    let now = 1_000;
    const logger = new RotatingFileLogger({ dir, ...APP_LOG_OPTIONS, now: () => now });
    startUp(logger);
    now = 9_000;
    // The vault answered: the app's keys are known.
    logger.setRedactor(secretRedactor([KEY]));
    await logger.close();
    const text = await readFile(logger.path, 'utf8');
    expect(keyScanner(KEY).leaks(text)).toEqual([]);
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(ENCODING_NAMES.length + 1);
    expect(lines.filter((line) => line.includes('"taskId":"task-'))).toHaveLength(
      ENCODING_NAMES.length,
    );
    // Each line keeps the time it was logged at, not the time it was written.
    expect(lines.every((line) => line.includes(new Date(1_000).toISOString()))).toBe(true);
  });

  it('writes what it held when it closes with no key read, and every later line as it comes', async () => {
    const logger = new RotatingFileLogger({ dir, ...APP_LOG_OPTIONS });
    logger.info('before');
    await logger.flush();
    // Nothing written while the keys are unknown.
    await expect(readFile(logger.path, 'utf8')).rejects.toThrow();
    await logger.close();
    logger.info('after');
    await logger.close();
    const text = await readFile(logger.path, 'utf8');
    expect(text).toContain('"message":"before"');
    expect(text).toContain('"message":"after"');
  });
});
