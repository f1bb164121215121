/**
 * The seed a service says it used, end to end: the real core against the demo service on
 * loopback, in each dialect. Today's contract, fal and BFL say one for every task (the demo's,
 * drawn from its seed and the task id): the engine records it, the history and the sidecar keep
 * it, and a restart reads it back. Replicate echoes the input, so a prediction made elsewhere
 * with a seed and tracked has it, and Pictor's own (sent without one) has none; DashScope says
 * none.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ProviderId } from '../../../shared/domain/providers';
import { parseSidecar } from '../../../electron/core/gallery/sidecar';
import { taskSeed } from '../../../electron/demo-service/prng';
import { KEY, providerRig, type ProviderRig } from './provider-harness';
import { submitOne } from './provider-scenarios';

/** The demo's own seed option, which the rig leaves at its default. */
const DEMO_SEED = 1;

async function oneTask(rig: ProviderRig) {
  rig.core.engine.start();
  const localId = await submitOne(rig, 'a seeded kite');
  const [done] = await rig.settle([localId]);
  expect(done).toMatchObject({ status: 'completed', images: [{ state: 'saved' }] });
  return done!;
}

function sidecarSeed(rig: ProviderRig, folder: string): number | undefined {
  const sidecar = parseSidecar(
    readFileSync(rig.core.gallery.resolve(`${folder}/pictor.json`), 'utf8'),
  );
  if (!sidecar.ok) throw new Error(sidecar.reason);
  return sidecar.record.seed;
}

describe('the seed a service says it used', () => {
  it.each<ProviderId>(['pictor', 'fal', 'bfl'])(
    '%s: is recorded, kept in the history and the sidecar, and read back after a restart',
    async (provider) => {
      const rig = await providerRig(provider);
      const done = await oneTask(rig);
      const expected = taskSeed(DEMO_SEED, done.taskId!);
      expect(done.seed).toBe(expected);
      expect(rig.stored(done.localId).seed).toBe(expected);
      expect(sidecarSeed(rig, done.folder!)).toBe(expected);
      await rig.restart();
      expect(rig.stored(done.localId).seed).toBe(expected);
    },
  );

  it('is the demo’s for each task: two tasks, two seeds, each its own task’s', async () => {
    const rig = await providerRig('fal');
    rig.core.engine.start();
    const ids = [await submitOne(rig, 'first kite'), await submitOne(rig, 'second kite')];
    const done = await rig.settle(ids);
    expect(done.map((record) => record.seed)).toEqual(
      done.map((record) => taskSeed(DEMO_SEED, record.taskId!)),
    );
    expect(done[0]!.seed).not.toBe(done[1]!.seed);
  });

  it.each<ProviderId>(['replicate', 'dashscope'])(
    '%s: a task Pictor sent says none, and its record has none',
    async (provider) => {
      const rig = await providerRig(provider);
      const done = await oneTask(rig);
      expect(done).not.toHaveProperty('seed');
      expect(sidecarSeed(rig, done.folder!)).toBeUndefined();
    },
  );

  it('replicate: a prediction made elsewhere with a seed, tracked, has that seed', async () => {
    const rig = await providerRig('replicate');
    const made = await fetch(
      `${rig.service.url}/v1/models/black-forest-labs/flux-schnell/predictions`,
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ input: { prompt: 'a kite made elsewhere', seed: 31_337 } }),
      },
    );
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };
    rig.core.engine.start();
    const tracked = await rig.core.engine.track(id);
    const [done] = await rig.settle([tracked.localId]);
    expect(done).toMatchObject({ status: 'completed', origin: 'tracked', seed: 31_337 });
    expect(rig.stored(tracked.localId).seed).toBe(31_337);
  });
});
