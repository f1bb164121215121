/**
 * The "Image pipeline" row's measurement: photo-like 2048×2048 PNGs checked and thumbnailed by
 * native sharp alone and by the core's image check on the sharp-native engine (pipeline-child.ts),
 * each in fresh child processes, in one run, on the same files.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runJsonChild } from '../json-child';
import { photoLikePng } from './photo-like';
import type { PipelineReport } from './pipeline-child';

const CHILD = fileURLToPath(new URL('./pipeline-child.ts', import.meta.url));
export const SIDE = 2048;

export type PipelineMode = 'native' | 'engine';

function runChild(mode: PipelineMode, dir: string, count: number): Promise<PipelineReport> {
  return runJsonChild<PipelineReport>(CHILD, [mode, dir, String(count)], {
    timeoutMs: 300_000,
    name: 'pipeline child',
  });
}

export interface PipelineFigures {
  readonly meanFileBytes: number;
  /** Every run of each mode, in the order run (alternated). */
  readonly runs: Record<PipelineMode, PipelineReport[]>;
}

/** `distinct` images, `count` checks per run, `rounds` runs of each mode alternated. */
export async function measurePipeline(
  count: number,
  distinct: number,
  rounds: number,
): Promise<PipelineFigures> {
  const dir = await mkdtemp(join(tmpdir(), 'pictor-bench-pipeline-'));
  try {
    const images = await Promise.all(
      Array.from({ length: distinct }, (_, n) => photoLikePng(n, SIDE)),
    );
    await Promise.all(images.map((image, n) => writeFile(join(dir, `image-${n}.png`), image)));
    const runs: Record<PipelineMode, PipelineReport[]> = { native: [], engine: [] };
    for (let round = 0; round < rounds; round += 1) {
      for (const mode of ['native', 'engine'] as const) {
        runs[mode].push(await runChild(mode, dir, count));
      }
    }
    return {
      meanFileBytes: images.reduce((sum, image) => sum + image.length, 0) / images.length,
      runs,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
