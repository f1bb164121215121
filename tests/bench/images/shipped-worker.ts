/**
 * The image worker as it ships: `npm run build:electron` writes dist-electron/image-worker.js,
 * here into a temporary test build (tests/support/test-build.ts, never the working tree's
 * dist-electron/), and the bench points its image workers at that bundle rather than at the
 * TypeScript source.
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTestBuild } from '../../support/test-build';

export const SHIPPED_WORKER_ENV = 'PICTOR_BENCH_IMAGE_WORKER';

/**
 * Builds the main-process bundles into a temporary folder, runs `use` with the worker bundle's
 * URL, then removes the folder.
 */
export async function withShippedWorker<T>(use: (workerUrl: URL) => Promise<T>): Promise<T> {
  const build = await createTestBuild({ renderer: false });
  try {
    const url = pathToFileURL(join(build.electronDir, 'image-worker.js'));
    await access(url);
    return await use(url);
  } finally {
    await build.dispose();
  }
}

/** In a bench child: the shipped worker the parent built, if it passed one. */
export function shippedWorkerFromEnv(): URL | undefined {
  const value = process.env[SHIPPED_WORKER_ENV];
  return value ? new URL(value) : undefined;
}
