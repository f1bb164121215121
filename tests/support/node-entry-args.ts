/** In a Vitest test: the `node` arguments that start a bundled entry (tests/support/node-entries.ts). */
import { inject } from 'vitest';
import { entryArgs, type NodeEntry } from './node-entries';
import './node-entries-setup';

export function nodeEntryArgs(entry: NodeEntry): string[] {
  return entryArgs(inject('pictorNodeEntries'), entry);
}
