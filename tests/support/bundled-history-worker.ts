/**
 * The history worker a test's core starts (electron/core/history/history-port.ts), from the bundle
 * built once for the run: the node entries (node-entries-setup.ts, which the unit and renderer
 * projects' run cache setup runs too), whose main build bundles the core's workers beside the CLI. From source each core's worker thread
 * loaded its modules through tsx: on a loaded 2-core machine 0.33 s of CPU and 0.45 to 0.95 s of
 * wall time to its first answer, from the bundle 0.12 s and 0.15 to 0.3 s; a core opens in most
 * integration tests, some several times. The worker is the app's own code, as the build ships it.
 * Nothing where the project built no bundle (the worker loads from source, as before).
 *
 * The same for the answer worker (electron/core/service/answer-reader.ts), where the run bundled
 * it (the node entries do): the process's shared reader starts it from source under tsx, once per
 * test file (each file has its own modules), 0.73 to 0.79 s of CPU to its `ready` at load 15
 * against 0.14 to 0.15 s from the bundle.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inject } from 'vitest';
import type {} from './node-entries-setup';
import type { PictorCoreOptions } from '../../electron/core/pictor-core';
import { AnswerReader } from '../../electron/core/service/answer-reader';

/** The bundled history-worker.js this project's run built, if it built one. */
function bundledWorkerFile(): string | undefined {
  const entries = inject('pictorNodeEntries') as string | undefined;
  return entries ? join(entries, 'history-worker.js') : undefined;
}

/** The core's `historyPort` option that starts the bundled worker, where there is one. */
export function bundledHistoryPort(): Pick<PictorCoreOptions, 'historyPort'> {
  const file = bundledWorkerFile();
  return file ? { historyPort: { workerUrl: pathToFileURL(file) } } : {};
}

/** This file's reader of the bundled answer worker, made at its first use. */
let reader: AnswerReader | undefined;

/**
 * The `answers` option (of the core, or of a ServiceClient) that reads answers in the bundled
 * answer-worker.js beside the bundled history worker, where the run built one: one reader for
 * the test file, as the process's shared one is, idle and ended as that one is.
 */
export function bundledAnswers(): Pick<PictorCoreOptions, 'answers'> {
  const history = bundledWorkerFile();
  const file = history === undefined ? undefined : join(dirname(history), 'answer-worker.js');
  if (file === undefined || !existsSync(file)) return {};
  reader ??= new AnswerReader({ workerUrl: pathToFileURL(file) });
  return { answers: reader };
}

/** A test core's options that start both its workers from the run's bundles, where it has them. */
export function bundledCoreWorkers(): Pick<PictorCoreOptions, 'historyPort' | 'answers'> {
  return { ...bundledHistoryPort(), ...bundledAnswers() };
}
