/**
 * The history worker a test's core starts (electron/core/history/history-port.ts), from the bundle
 * the project's global setup built once for the run: the renderer projects' run cache
 * (run-cache-setup.ts) or the integration projects' node entries (node-entries-setup.ts), whose
 * main build bundles the core's workers beside the CLI. From source each core's worker thread
 * loaded its modules through tsx: on a loaded 2-core machine 0.33 s of CPU and 0.45 to 0.95 s of
 * wall time to its first answer, from the bundle 0.12 s and 0.15 to 0.3 s; a core opens in most
 * integration tests, some several times. The worker is the app's own code, as the build ships it.
 * Nothing where the project built no bundle (the worker loads from source, as before).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inject } from 'vitest';
import type {} from './node-entries-setup';
import type {} from './run-cache-setup';
import type { PictorCoreOptions } from '../../electron/core/pictor-core';

/** The bundled history-worker.js this project's run built, if it built one. */
function bundledWorkerFile(): string | undefined {
  const runCache = inject('pictorHistoryWorker') as string | undefined;
  if (runCache) return runCache;
  const entries = inject('pictorNodeEntries') as string | undefined;
  return entries ? join(entries, 'history-worker.js') : undefined;
}

/** The core's `historyPort` option that starts the bundled worker, where there is one. */
export function bundledHistoryPort(): Pick<PictorCoreOptions, 'historyPort'> {
  const file = bundledWorkerFile();
  return file ? { historyPort: { workerUrl: pathToFileURL(file) } } : {};
}
