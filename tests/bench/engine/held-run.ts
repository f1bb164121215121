/**
 * One run of the real core (SQLite history, gallery on disk, Node fetch, the real clock) against
 * the demo service speaking one dialect that holds a wait (fal's status stream, Replicate's
 * `Prefer: wait`) on loopback: tasks submitted together, each timed from the service's
 * completesAt to its record with the saved image written to the history, with the engine's held
 * wait on, or off (polling alone at the 3 s interval) for the figure beside it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeFetch } from '../../../electron/adapters/node-fetch';
import { systemClock } from '../../../electron/adapters/system-clock';
import { openPictorCore } from '../../../electron/core/pictor-core';
import { startDemoService } from '../../../electron/demo-service/server';
import type { CredentialsProvider } from '../../../electron/ports/credentials';
import { syncFingerprint } from '../../fakes/static-credentials';
import { testImageEngine } from '../../support/image-engine';
import { targetAt } from '../../support/submit-target';

interface HeldRunOptions {
  readonly dialect: 'fal' | 'replicate';
  /** The engine's held wait; null: polling alone. */
  readonly heldWaitMs: number | null;
  readonly tasks: number;
  readonly durationMs: { min: number; max: number };
  readonly pollIntervalMs: number;
  readonly size: string;
  readonly deadlineMs: number;
}

export interface HeldRunResult {
  /** completesAt → saved, per task that was saved (ms). */
  readonly doneToSavedMs: number[];
  readonly submits: number;
  readonly settled: boolean;
}

const KEY = 'sk-bench-held';
const MODEL = { fal: 'fal-ai/flux/dev', replicate: 'black-forest-labs/flux-dev' } as const;

function credentialsAt(baseUrl: string, provider: HeldRunOptions['dialect']): CredentialsProvider {
  return {
    currentEndpoint: () => baseUrl,
    credentialsFor: async (endpoint) =>
      endpoint === baseUrl
        ? { baseUrl, key: KEY, keyFingerprint: syncFingerprint(KEY), provider }
        : null,
    baseUrlFor: (endpoint) => (endpoint === baseUrl ? baseUrl : null),
  };
}

/** Runs the scenario; everything it starts is closed and removed. */
export async function runHeldScenario(options: HeldRunOptions): Promise<HeldRunResult> {
  const service = await startDemoService({
    dialect: options.dialect,
    accounts: [{ account: 'bench', key: KEY }],
    durationMs: options.durationMs,
    seed: 11,
    images: testImageEngine,
  });
  const dir = await mkdtemp(join(tmpdir(), 'pictor-bench-held-'));
  try {
    const core = await openPictorCore({
      imageEngine: testImageEngine,
      dataDir: join(dir, 'data'),
      galleryDir: join(dir, 'gallery'),
      fetch: createNodeFetch(),
      credentials: credentialsAt(service.url, options.dialect),
      clock: systemClock,
      engine: { pollIntervalMs: options.pollIntervalMs, heldWaitMs: options.heldWaitMs },
    });
    const written = new Map<string, number>();
    core.engine.onDidUpdate(({ record }) => {
      if (!written.has(record.localId) && record.images[0]?.state === 'saved') {
        written.set(record.localId, Date.now());
      }
    });
    try {
      core.engine.start();
      const target = targetAt(service.url, options.dialect);
      const submitted = await Promise.all(
        Array.from({ length: options.tasks }, (_, n) =>
          core.engine.submit(
            {
              prompt: `held wait ${n}: a lighthouse`,
              size: options.size,
              model: MODEL[options.dialect],
            },
            target,
          ),
        ),
      );
      const ids = submitted.flat().map((record) => record.localId);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<null>(
        (resolve) => (timer = setTimeout(() => resolve(null), options.deadlineMs)),
      );
      const settled = await Promise.race([core.engine.whenSettled(ids), late]).finally(() =>
        clearTimeout(timer),
      );
      const byTaskId = new Map(
        ids.map((id) => core.history.get(id)).flatMap((r) => (r ? [[r.taskId, r] as const] : [])),
      );
      const doneToSavedMs = service.tasks().flatMap((task) => {
        const record = byTaskId.get(task.id);
        const savedAt = record ? written.get(record.localId) : undefined;
        return savedAt === undefined ? [] : [savedAt - task.completesAt];
      });
      return { doneToSavedMs, submits: service.log.submits.length, settled: settled !== null };
    } finally {
      await core.close();
    }
  } finally {
    await service.close();
    await rm(dir, { recursive: true, force: true });
  }
}
