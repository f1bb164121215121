/**
 * A record a stage of `npm test` keeps for a later test, beside a digest of the exact inputs it
 * follows from: the typecheck's dead exports (dead-exports-cache.ts) and the lint stage's size
 * offenders (size-offenders-record.ts). A test reads it back only while every input is as it was;
 * otherwise it finds the facts anew.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { z } from 'zod';

/**
 * A digest of `files` (relative to `root`, with `/`) by their paths and bytes, in the order given,
 * after `salt` (what else the facts follow from, a tool's version).
 */
export function filesDigest(root: string, files: readonly string[], salt = ''): string {
  const hash = createHash('sha256').update(salt);
  for (const file of files) {
    const path = join(root, file);
    hash.update(`${file}\0`).update(existsSync(path) ? readFileSync(path) : 'missing');
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Writes `record` to `file` (relative to `root`). */
export function writeStageRecord<T extends { inputs: string }>(
  root: string,
  file: string,
  record: T,
): void {
  const path = join(root, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`);
}

/** The record at `file` when it reads as `schema` and was made from `inputs()`; else undefined. */
export function stageRecordOf<T extends { inputs: string }>(
  root: string,
  file: string,
  schema: z.ZodType<T>,
  inputs: () => string,
): T | undefined {
  const path = join(root, file);
  if (!existsSync(path)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  const record = schema.safeParse(json);
  return record.success && record.data.inputs === inputs() ? record.data : undefined;
}
