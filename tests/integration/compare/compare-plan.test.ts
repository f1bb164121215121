/**
 * The plan of a compare, through the real core and the compare credentials: duplicates labelled
 * #1/#2, a target without a key left out with its sentence, a size adapted to the service that
 * takes an aspect ratio, the hard cap refusing it all before anything is stored, a compare out of
 * its bounds refused; and the compare field through a sidecar, a crafted one included, and a
 * rebuild.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { englishText } from '../../../shared/i18n/sentence';
import { CompareInputError, planCompare } from '../../../electron/core/compare/compare-plan';
import { runCompare } from '../../../electron/core/compare/compare-run';
import { SpendingCapError } from '../../../electron/core/errors/spending-cap-error';
import { acceptedSubmits, compareWorld } from './compare-harness';

describe('planning a compare', () => {
  it('labels a repeated target #1/#2, leaves out a target without a key, adapts a size', async () => {
    const world = await compareWorld({ fal: {}, replicate: {}, bfl: {} }, ['fal', 'replicate']);
    const deps = { credentials: world.credentials, costs: world.core.costs };
    const fal = { provider: 'fal' as const, baseUrl: world.urlOf('fal'), model: 'fal-ai/flux/dev' };
    const plan = await planCompare(deps, {
      prompts: ['a red kite', 'a blue kite'],
      targets: [
        { ...fal, size: '1024x1024', quality: 'hd' },
        { ...fal, size: '1024x1024' },
        { provider: 'replicate', baseUrl: world.urlOf('replicate'), size: '1024x1024' },
        { provider: 'replicate', baseUrl: world.urlOf('replicate'), size: '1000x300' },
        { provider: 'bfl', baseUrl: world.urlOf('bfl') },
      ],
    });
    expect(plan.targets.map((t) => t.label)).toEqual([
      'fal.ai · fal-ai/flux/dev #1',
      'fal.ai · fal-ai/flux/dev #2',
      'Replicate · black-forest-labs/flux-schnell #1',
      'Replicate · black-forest-labs/flux-schnell #2',
    ]);
    expect(plan.leftOut).toHaveLength(1);
    expect(plan.leftOut[0]?.slot).toBe(5);
    expect(englishText(plan.leftOut[0]!.reason)).toMatch(/^(?!Left out).*127\.0\.0\.1/);
    const [first, , ratio, noRatio] = plan.targets;
    const english = (notes: typeof first) => notes?.notes.map((note) => englishText(note));
    // Each adaptation once, though the target has two prompts.
    expect(english(first)).toEqual(['fal.ai has no quality setting: “hd” is left out.']);
    expect(first?.requests.every((request) => request.quality === undefined)).toBe(true);
    expect(english(ratio)).toEqual(['Replicate takes an aspect ratio: 1024×1024 → 1:1.']);
    expect(english(noRatio)?.[0]).toMatch(/1000×300 is none it offers/);
    expect(noRatio?.requests.every((request) => request.size === undefined)).toBe(true);
    expect(first?.requests.map((request) => request.prompt)).toEqual(['a red kite', 'a blue kite']);
    // The plan stored and sent nothing.
    expect(world.core.history.list({}).items).toEqual([]);
    expect(acceptedSubmits(world.service('fal'))).toBe(0);
  });

  it('refuses in the plan a compare of more tasks than one submit may make, as the run would', async () => {
    const world = await compareWorld({ fal: {}, bfl: {} });
    const deps = { credentials: world.credentials, costs: world.core.costs };
    const targets = (['fal', 'bfl'] as const).map((provider) => ({
      provider,
      baseUrl: world.urlOf(provider),
      count: 10,
    }));
    const prompts = Array.from({ length: 6 }, (_, n) => `kite ${String(n)}`);
    // 6 prompts × 2 targets × 10 = 120 tasks: past the engine's 100.
    const over = await planCompare(deps, { prompts, targets });
    expect(englishText(over.refusal!)).toBe(
      'The number of tasks must be a whole number from 1 to 100.',
    );
    await expect(runCompare(world.core.engine, over)).rejects.toThrow(/1 to 100/);
    expect(world.core.history.list({}).items).toEqual([]);
    // 5 prompts: 100 tasks, the most one compare makes, refused by nothing.
    const most = await planCompare(deps, { prompts: prompts.slice(0, 5), targets });
    expect(most.refusal).toBeUndefined();
  });

  it('refuses a compare past a hard cap before anything is stored or sent', async () => {
    const world = await compareWorld({ fal: {}, bfl: {} });
    const { costs } = world.core;
    costs.setPrice({ provider: 'fal', model: '', unit: 'USD', basis: 'image', micros: 30_000 });
    costs.setPrice({ provider: 'bfl', model: '', unit: 'USD', basis: 'image', micros: 40_000 });
    // Each service alone fits its own cap; the compare passes the cap of every service.
    costs.setCap({ period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 60_000 });
    costs.setCap({ period: 'day', unit: 'USD', provider: 'fal', kind: 'soft', micros: 10_000 });
    const plan = await planCompare(
      { credentials: world.credentials, costs },
      {
        prompts: ['a kite'],
        targets: [
          { provider: 'fal', baseUrl: world.urlOf('fal') },
          { provider: 'bfl', baseUrl: world.urlOf('bfl') },
        ],
      },
    );
    expect(plan.totals.total.micros.USD).toBe(70_000);
    expect(englishText(plan.refusal!)).toMatch(/cap/i);
    expect(plan.warnings).toHaveLength(1);
    world.core.engine.start({ resume: false });
    await expect(runCompare(world.core.engine, plan)).rejects.toBeInstanceOf(SpendingCapError);
    // The engine's own admission refuses it too, whatever a plan said.
    await expect(
      runCompare(world.core.engine, { ...plan, refusal: undefined } as typeof plan),
    ).rejects.toBeInstanceOf(SpendingCapError);
    expect(world.core.history.list({}).items).toEqual([]);
    expect(world.service('fal').log.submits).toEqual([]);
    expect(world.service('bfl').log.submits).toEqual([]);
  });

  it('names the service with no price when a cap of every service cannot count it, not the first target', async () => {
    const world = await compareWorld({ fal: {}, bfl: {} });
    const { costs } = world.core;
    // fal (first) has a price in USD; BFL has none: the cap of every service cannot count BFL.
    costs.setPrice({ provider: 'fal', model: '', unit: 'USD', basis: 'image', micros: 30_000 });
    costs.setCap({ period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 1_000_000 });
    const plan = await planCompare(
      { credentials: world.credentials, costs },
      {
        prompts: ['a kite'],
        targets: [
          { provider: 'fal', baseUrl: world.urlOf('fal') },
          { provider: 'bfl', baseUrl: world.urlOf('bfl'), model: 'flux-dev' },
        ],
      },
    );
    const refusal = englishText(plan.refusal!);
    expect(refusal).toContain('Black Forest Labs has no price in USD for the model flux-dev');
    expect(refusal).not.toContain('fal.ai');
    expect(plan.overCap).toBe(true);
  });

  it.each([
    ['7 targets', 1, 7, /2 to 6 targets; this one has 7/],
    ['1 target', 1, 1, /2 to 6 targets; this one has 1/],
    ['11 prompts', 11, 2, /1 to 10 prompts; this one has 11/],
    ['no prompt', 0, 2, /1 to 10 prompts; this one has 0/],
  ])('refuses %s with a sentence', async (_, prompts, targets, sentence) => {
    const world = await compareWorld({ fal: {} });
    const input = {
      prompts: Array.from({ length: prompts }, (_, n) => `prompt ${n}`),
      targets: Array.from({ length: targets }, () => ({
        provider: 'fal' as const,
        baseUrl: world.urlOf('fal'),
      })),
    };
    const planned = planCompare({ credentials: world.credentials, costs: world.core.costs }, input);
    await expect(planned).rejects.toBeInstanceOf(CompareInputError);
    await expect(planned).rejects.toThrow(sentence);
  });
});

describe('the compare field on disk', () => {
  it('goes through the sidecar and a rebuild; a crafted label loses its bidi and control characters', async () => {
    const world = await compareWorld({ fal: {}, bfl: {} });
    const plan = await planCompare(
      { credentials: world.credentials, costs: world.core.costs },
      {
        prompts: ['a kite over the sea'],
        targets: [
          { provider: 'fal', baseUrl: world.urlOf('fal') },
          { provider: 'bfl', baseUrl: world.urlOf('bfl') },
        ],
      },
    );
    world.core.engine.start({ resume: false });
    const started = await runCompare(world.core.engine, plan);
    const done = await world.core.engine.whenSettled(started.map((record) => record.localId));
    const [fal, bfl] = done;
    if (!fal?.folder || !bfl?.folder) throw new Error('no task folder');
    // Closed first: the core writes its sidecars last as it stops.
    await world.core.close();
    const sidecarOf = (folder: string) => join(world.dir, 'gallery', folder, 'pictor.json');
    const falText = await readFile(sidecarOf(fal.folder), 'utf8');
    expect(falText).toContain(plan.group);
    // Crafted: a label that would turn its line around, with control characters, and a slot
    // out of range on the other task.
    const crafted = falText.replace(
      JSON.stringify(fal.compare?.label),
      JSON.stringify('\u202Eevil\u0007 label\u2066'),
    );
    expect(crafted).not.toBe(falText);
    await writeFile(sidecarOf(fal.folder), crafted);
    const bflText = await readFile(sidecarOf(bfl.folder), 'utf8');
    const badSlot = bflText.replace(/"slot":\s*2/, '"slot": 9');
    expect(badSlot).not.toBe(bflText);
    await writeFile(sidecarOf(bfl.folder), badSlot);

    await rm(join(world.dir, 'data'), { recursive: true, force: true });
    const rebuilt = await world.open();
    try {
      const { added } = await rebuilt.operations.rebuild({});
      expect(added).toBe(2);
      const falAgain = rebuilt.history.get(fal.localId);
      // The label as cleaned, and the facts the window names the target by, through the sidecar.
      expect(falAgain?.compare).toEqual({
        group: plan.group,
        slot: 1,
        label: 'evil label',
        service: 'fal',
        model: 'fal-ai/flux/schnell',
      });
      // A damaged compare field is dropped; the task is kept.
      const bflAgain = rebuilt.history.get(bfl.localId);
      expect(bflAgain?.status).toBe('completed');
      expect(bflAgain?.compare).toBeUndefined();
      expect(
        rebuilt.history.list({ compareGroup: plan.group }).items.map((r) => r.localId),
      ).toEqual([fal.localId]);
    } finally {
      await rebuilt.close();
    }
  }, 30_000);
});
