/**
 * The size offenders the lint stage measured (tests/support/eslint-stage.ts), kept beside the
 * exact inputs they were measured in: `npm test`'s ESLint parses every product file anyway, and
 * the measuring rules cost it little, where the lint test's own lint of the tree took 13 s of a
 * quiet 2-core machine (tests/unit/lint/size-limits.test.ts). The record counts only for the same
 * inputs (the lock file, which holds ESLint's version and its parser's, eslint.config.js, and
 * every file under electron/, renderer/ and shared/ by its path and bytes); for any other the test
 * measures anew.
 */
import { z } from 'zod';
import { measureSizeOffenders, type SizeOffenders } from './size-offenders';
import { repositoryFiles } from './source-files';
import { filesDigest, stageRecordOf, writeStageRecord } from './stage-record';

/** Where the lint stage leaves its record (test-results/ is the run's, and not committed). */
export const SIZE_OFFENDERS_RECORD = 'test-results/size-offenders.json';

/** The folders of product code (eslint.config.js PRODUCT_CODE). */
const PRODUCT_FOLDERS = ['electron', 'renderer', 'shared'];

const SizeOffendersRecord = z.object({
  inputs: z.string(),
  offenders: z.record(z.string(), z.record(z.string(), z.number())),
});

/** Every file the measures follow from, relative to `root` with `/`, sorted. */
function inputFiles(root: string): string[] {
  // Every name: the digest follows any file there, not only the linted ones.
  const product = repositoryFiles(PRODUCT_FOLDERS, /^/, { root, missing: 'empty' });
  return ['package-lock.json', 'eslint.config.js', ...product].sort();
}

/** A digest of everything the size offenders of the project at `root` follow from. */
export function sizeInputsDigest(root: string): string {
  return filesDigest(root, inputFiles(root));
}

/** Keeps `offenders`, measured in the project at `root` as it is now, for the lint test. */
export function recordSizeOffenders(root: string, offenders: SizeOffenders): void {
  writeStageRecord(root, SIZE_OFFENDERS_RECORD, { inputs: sizeInputsDigest(root), offenders });
}

/** The recorded offenders when they were measured in today's inputs; undefined otherwise. */
export function recordedSizeOffenders(root: string): SizeOffenders | undefined {
  const record = stageRecordOf(root, SIZE_OFFENDERS_RECORD, SizeOffendersRecord, () =>
    sizeInputsDigest(root),
  );
  return record?.offenders as SizeOffenders | undefined;
}

/** The project's size offenders: the lint stage's record of today's inputs, or measured anew. */
export async function sizeOffendersOf(root: string): Promise<SizeOffenders> {
  return recordedSizeOffenders(root) ?? (await measureSizeOffenders(root));
}
