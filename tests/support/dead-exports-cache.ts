/**
 * The dead exports the typecheck found (tests/support/typecheck.ts), and the other facts of its
 * program the lint tests need (TypecheckFacts), kept beside the exact inputs they were found in: npm test's typecheck builds and types the whole
 * program anyway, and finding the dead exports in it takes a second or two, where a program of
 * the lint test's own took half a minute on 2 cores. The record counts only for the same inputs
 * (TypeScript's version, the lock file, tsconfig.json and every file of the program's roots, by
 * their bytes); for any other the test finds them in a program of its own.
 */
import { relative, sep } from 'node:path';
import ts from 'typescript';
import { z } from 'zod';
import { findDeadExports, projectConfig, type DeadExport } from './dead-exports';
import { filesDigest, stageRecordOf, writeStageRecord } from './stage-record';

/** Where the typecheck leaves its record (test-results/ is the run's, and not committed). */
export const DEAD_EXPORTS_RECORD = 'test-results/dead-exports.json';

/**
 * What else the lint tests need from a program of the project, found by the typecheck in
 * programs that reuse its trees: the files a new IPC channel fails to compile in
 * (tests/support/channel-cost.ts), and the product files a new service needs
 * (tests/support/added-service.ts).
 */
export interface TypecheckFacts {
  readonly channelCost: string[];
  readonly addedService: string[];
}

const DeadExportsRecord = z.object({
  inputs: z.string(),
  dead: z.array(z.object({ id: z.string(), kind: z.enum(['unused', 'tests-only']) })),
  channelCost: z.array(z.string()).optional(),
  addedService: z.array(z.string()).optional(),
});

/** A digest of everything the dead exports of the project at `root` follow from. */
export function inputsDigest(root: string, fileNames: readonly string[]): string {
  const files = ['package-lock.json', 'tsconfig.json', ...fileNames.map((f) => relative(root, f))];
  const sorted = [...new Set(files.map((f) => f.split(sep).join('/')))].sort();
  return filesDigest(root, sorted, `typescript ${ts.version}\0`);
}

/** Keeps `dead` and the other `facts`, found in the program of `fileNames`, for the lint tests. */
export function recordDeadExports(
  root: string,
  fileNames: readonly string[],
  dead: readonly DeadExport[],
  facts: { readonly [K in keyof TypecheckFacts]?: string[] | undefined } = {},
): void {
  const inputs = inputsDigest(root, fileNames);
  writeStageRecord(root, DEAD_EXPORTS_RECORD, { inputs, dead: [...dead], ...facts });
}

/** The typecheck's record when it was made from today's inputs; undefined otherwise. */
function recordOfToday(root: string): z.infer<typeof DeadExportsRecord> | undefined {
  return stageRecordOf(root, DEAD_EXPORTS_RECORD, DeadExportsRecord, () =>
    inputsDigest(root, projectConfig(root).fileNames),
  );
}

/** The recorded dead exports when they were found in today's inputs; undefined otherwise. */
export function recordedDeadExports(root: string): DeadExport[] | undefined {
  return recordOfToday(root)?.dead;
}

/** One of the other recorded facts when it was found in today's inputs; undefined otherwise. */
export function recordedFact(root: string, fact: keyof TypecheckFacts): string[] | undefined {
  return recordOfToday(root)?.[fact];
}

/** The project's dead exports: the typecheck's record of today's inputs, or found anew. */
export function deadExportsOf(root: string): DeadExport[] {
  return recordedDeadExports(root) ?? findDeadExports(root);
}
