/** In a Vitest test: the `node` arguments that start a bundled entry (tests/support/node-entries.ts). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inject } from 'vitest';
import type { HistoryPortOptions } from '../../electron/core/history';
import { entryArgs, type NodeEntry } from './node-entries';
import './node-entries-setup';

export function nodeEntryArgs(entry: NodeEntry): string[] {
  return entryArgs(inject('pictorNodeEntries'), entry);
}

/**
 * The history worker of a core a test file opens in its own process: the run's bundle of it
 * (history-worker.js, built beside the entries as the app ships it) instead of its source. From
 * source every core's open started a thread that loaded the history's modules through tsx (about
 * 0.5 s of CPU each on a quiet 2-core machine, since the core starts and warms its worker as it
 * opens), which a file opening a core per case paid dozens of times.
 */
export function bundledHistoryWorker(): HistoryPortOptions {
  const bundle = join(inject('pictorNodeEntries'), 'history-worker.js');
  if (!existsSync(bundle)) throw new Error(`the test bundle ${bundle} is missing`);
  return { workerUrl: pathToFileURL(bundle) };
}
