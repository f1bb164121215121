/**
 * The image worker as it ships: `npm run build:electron` writes dist-electron/image-worker.js
 * (run here through the same build function), and the bench points its image workers at that
 * bundle rather than at the TypeScript source.
 */
import { access } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildElectron } from '../../../electron/build/build-electron';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const SHIPPED_WORKER_ENV = 'PICTOR_BENCH_IMAGE_WORKER';

/** Builds the main-process bundles into dist-electron/ and returns the worker bundle's URL. */
export async function buildShippedWorker(): Promise<URL> {
  await buildElectron({ rootDir: ROOT, outDir: `${ROOT}dist-electron` });
  const url = pathToFileURL(`${ROOT}dist-electron/image-worker.js`);
  await access(url);
  return url;
}

/** In a bench child: the shipped worker the parent built, if it passed one. */
export function shippedWorkerFromEnv(): URL | undefined {
  const value = process.env[SHIPPED_WORKER_ENV];
  return value ? new URL(value) : undefined;
}
