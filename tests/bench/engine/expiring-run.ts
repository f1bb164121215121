/**
 * The "Expiring results" row's run: the real core (SQLite history, gallery on disk, Node fetch,
 * the real clock) with two services on loopback, both finishing their tasks together: the demo
 * in fal's dialect, whose result links live 6 minutes (fal's shortest documented retention), and
 * one on today's contract, whose links do not expire, submitted first. Every image crosses one
 * slow link, so slow that all the downloads together take 1.5 × the links' lifetime: saved in
 * the order they came, a quarter of the expiring ones would be lost. Counts what was saved, and
 * how long before its link died each expiring image was.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeFetch } from '../../../electron/adapters/node-fetch';
import { systemClock } from '../../../electron/adapters/system-clock';
import { openPictorCore } from '../../../electron/core/pictor-core';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import type { CredentialsProvider, ServiceCredentials } from '../../../electron/ports/credentials';
import type { ProviderId } from '../../../shared/domain/providers';
import { syncFingerprint } from '../../fakes/static-credentials';
import { testImageEngine } from '../../support/image-engine';
import { noisePng } from './download-memory';
import { slowLink } from './slow-link';
import { targetAt } from '../../support/submit-target';

export interface ExpiringRunOptions {
  /** Tasks on each service. */
  readonly tasks: number;
  /** How long the expiring service's result links live. */
  readonly lifetimeMs: number;
  /** Side of the (incompressible) PNG every image is. */
  readonly side: number;
  /** All downloads together take this many lifetimes on the slow link. */
  readonly linkLoad: number;
}

export interface ExpiringRunResult {
  readonly imageBytes: number;
  readonly bytesPerSecond: number;
  /** Expiring images saved / expired or not saved, and the least time any had left. */
  readonly expiringSaved: number;
  readonly expiringLost: number;
  readonly leastHeadroomMs: number | null;
  /** Non-expiring images saved by the time the expiring ones settled. */
  readonly steadySaved: number;
  readonly wallMs: number;
}

const KEY = 'sk-bench-expiring';

/** Credentials for two services, each bound to its own address and provider. */
function twoServices(
  fal: string,
  pictor: string,
): CredentialsProvider & { use(url: string): void } {
  let current = pictor;
  const providers = new Map<string, ProviderId>([
    [fal, 'fal'],
    [pictor, 'pictor'],
  ]);
  return {
    use: (url) => (current = url),
    currentEndpoint: () => current,
    async credentialsFor(endpoint): Promise<ServiceCredentials | null> {
      const provider = providers.get(endpoint);
      if (!provider) return null;
      return { baseUrl: endpoint, key: KEY, keyFingerprint: syncFingerprint(KEY), provider };
    },
    baseUrlFor: (endpoint) => (providers.has(endpoint) ? endpoint : null),
  };
}

async function demo(
  dialect: 'fal' | 'pictor',
  png: Buffer,
  ttl: number | null,
  pacing: (bytes: number) => Promise<void>,
): Promise<DemoService> {
  return startDemoService({
    imagePacing: pacing,
    dialect,
    accounts: [{ account: 'bench', key: KEY }],
    durationMs: 15_000,
    seed: 11,
    images: testImageEngine,
    imageFiles: [png],
    imageUrlTtlMs: ttl,
  });
}

export async function runExpiringScenario(options: ExpiringRunOptions): Promise<ExpiringRunResult> {
  const png = await noisePng(options.side);
  const totalBytes = png.length * options.tasks * 2;
  const bytesPerSecond = totalBytes / ((options.linkLoad * options.lifetimeMs) / 1000);
  const link = slowLink(bytesPerSecond);
  const fal = await demo('fal', png, options.lifetimeMs, link);
  const steady = await demo('pictor', png, null, link);
  const dir = await mkdtemp(join(tmpdir(), 'pictor-bench-expiring-'));
  const credentials = twoServices(fal.url, steady.url);
  try {
    const core = await openPictorCore({
      imageEngine: testImageEngine,
      dataDir: join(dir, 'data'),
      galleryDir: join(dir, 'gallery'),
      fetch: createNodeFetch(),
      credentials,
      clock: systemClock,
    });
    try {
      core.engine.start();
      const started = Date.now();
      const submit = async (url: string, label: string) => {
        credentials.use(url);
        const target = targetAt(url, url === fal.url ? 'fal' : 'pictor');
        const records = await Promise.all(
          Array.from({ length: options.tasks }, (_, n) =>
            core.engine.submit({ prompt: `${label} ${n}`, model: 'fal-ai/flux/schnell' }, target),
          ),
        );
        return records.flat().map((record) => record.localId);
      };
      const steadyIds = await submit(steady.url, 'steady');
      const expiringIds = await submit(fal.url, 'expiring');
      const settled = await core.engine.whenSettled(expiringIds);
      const wallMs = Date.now() - started;
      const headroom = settled.flatMap((record) =>
        record.images
          .filter((image) => image.state === 'saved' && image.savedAt !== undefined)
          .map((image) => (record.resultsExpireAt ?? 0) - (image.savedAt ?? 0)),
      );
      const expiringSaved = headroom.length;
      const steadySaved = steadyIds
        .map((id) => core.history.get(id))
        .filter((record) => record?.images[0]?.state === 'saved').length;
      return {
        imageBytes: png.length,
        bytesPerSecond,
        expiringSaved,
        expiringLost: options.tasks - expiringSaved,
        leastHeadroomMs: headroom.length === 0 ? null : Math.min(...headroom),
        steadySaved,
        wallMs,
      };
    } finally {
      await core.close();
    }
  } finally {
    await fal.close();
    await steady.close();
    await rm(dir, { recursive: true, force: true });
  }
}
