/**
 * The real core (SQLite history, gallery on disk, HTTP client, task engine) against three demo
 * services on loopback, each speaking one dialect, with the CLI's compare credentials: one key per
 * provider, each bound to its own service.
 */
import { join } from 'node:path';
import { CompareCredentials } from '../../../electron/cli/compare-credentials';
import { keyVariable } from '../../../electron/cli/key-variables';
import type { PictorCore } from '../../../electron/core/pictor-core';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService, DemoServiceOptions } from '../../../electron/demo-service/types';
import type { ProviderId } from '../../../shared/domain/providers';
import { afterEachTest } from '../../support/after-each-test';
import { newLibraryAt } from '../../support/migrated-history';
import { openTestCore } from '../core/core-harness';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const cleanups: (() => Promise<void>)[] = [];
afterEachTest(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export type Dialect = Exclude<ProviderId, 'pictor'>;

/** Each dialect's key at its demo (distinct: a key in the wrong place is told apart). */
export const KEYS: Record<Dialect, string> = {
  fal: 'fal-key-compare-5d1c0e9a',
  replicate: 'r8_compare-90a4c1e7',
  dashscope: 'sk-dashscope-compare-6e2b',
  bfl: 'bfl-compare-3a7e5c9d',
  comfyui: 'comfyui-compare-8c1d2e4f',
};

/** Submits a demo service accepted (answered 2xx). */
export function acceptedSubmits(service: DemoService): number {
  return service.log.submits.filter((entry) => (entry.status ?? 0) < 300).length;
}

/**
 * One demo per dialect in `dialects` (options per dialect), a library in a temporary folder, and
 * the core opened over it with a key for each dialect in `keyed` (default: all).
 */
export async function compareWorld(
  dialects: Partial<Record<Dialect, DemoServiceOptions>>,
  keyed?: readonly Dialect[],
) {
  const services = new Map<Dialect, DemoService>();
  for (const [dialect, options] of Object.entries(dialects) as [Dialect, DemoServiceOptions][]) {
    const service = await startDemoService({
      dialect,
      accounts: [{ account: 'alice', key: KEYS[dialect] }],
      durationMs: { min: 300, max: 600 },
      ...options,
    });
    services.set(dialect, service);
  }
  const env: NodeJS.ProcessEnv = {};
  for (const dialect of keyed ?? [...services.keys()]) env[keyVariable(dialect)] = KEYS[dialect];
  const urls = new Map([...services].map(([dialect, service]) => [dialect, service.url]));
  const credentials = await CompareCredentials.create(env, [...services.keys()], urls);
  const dir = await tempFolder('compare');
  // Its history at today's schema already, as core-harness.ts's worlds start on.
  await newLibraryAt(join(dir, 'data'));
  const open = (): Promise<PictorCore> => openTestCore(dir, credentials);
  const world = { services, credentials, dir, core: await open(), open };
  const service = (dialect: Dialect): DemoService => {
    const found = services.get(dialect);
    if (!found) throw new Error(`no ${dialect} demo`);
    return found;
  };
  cleanups.push(async () => {
    await world.core.close().catch(() => undefined);
    for (const one of services.values()) await one.close();
    await removeFolder(dir);
  });
  return { ...world, service, urlOf: (dialect: Dialect) => service(dialect).url };
}
