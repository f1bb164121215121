/**
 * An edit sent through the real core to demo services on loopback: planned again, every task
 * stored under one group before any is sent, each then sent once with its inputs in its request;
 * a target whose uploads would be public links the user has not agreed to is left out and never
 * reaches its service; a run with nothing left, or past a hard cap, stores and sends nothing.
 */
import { describe, expect, it } from 'vitest';
import { englishText } from '../../../../shared/i18n/sentence';
import { EditInputError } from '../../../../electron/core/edit/edit-plan';
import { runEdit } from '../../../../electron/core/edit/edit-run';
import { SpendingCapError } from '../../../../electron/core/errors/spending-cap-error';
import { acceptedSubmits, compareWorld } from '../../compare/compare-harness';
import { sourcePng } from '../../demo-service/input-helpers';
import { editDeps, image, memoryInputs } from './edit-world';

describe('running an edit', () => {
  it('stores every task first, sends each once, and leaves out public links without consent', async () => {
    const w = await compareWorld({ fal: {}, bfl: {}, replicate: {} });
    // Real PNG bytes in the core's own input store: the engine reads them back to send them.
    const source = await w.core.inputs.put(await sourcePng());
    const deps = { ...editDeps(w, memoryInputs([source])), engine: w.core.engine };
    const inputs = { operation: 'edit' as const, source, route: 'upload' as const };
    w.core.engine.start({ resume: false });
    const run = await runEdit(deps, {
      prompt: 'make it night',
      inputs: { ...inputs, route: 'auto' },
      targets: [
        { provider: 'bfl', model: 'flux-kontext-pro', baseUrl: w.urlOf('bfl') },
        { provider: 'bfl', model: 'flux-kontext-max', baseUrl: w.urlOf('bfl') },
      ],
    });
    expect(run.records).toHaveLength(2);
    // Stored, one group, in slot order, each with its inputs, before the run answered.
    const stored = w.core.history.list({}).items;
    expect(stored).toHaveLength(2);
    expect(new Set(run.records.map((record) => record.compare?.group))).toEqual(
      new Set([run.plan.group]),
    );
    expect(run.records.map((record) => record.compare?.slot)).toEqual([1, 2]);
    for (const record of run.records) expect(record.request.inputs?.source).toEqual(source);
    const sent = await w.core.engine.whenSettled(run.records.map((record) => record.localId));
    expect(sent.map((record) => record.status)).toEqual(['completed', 'completed']);
    expect(acceptedSubmits(w.service('bfl'))).toBe(2);

    // fal would upload to public links; no consent was given: left out, never sent.
    const consent = runEdit(deps, {
      prompt: 'make it night',
      inputs,
      targets: [{ provider: 'fal', model: 'fal-ai/flux-pro/kontext', baseUrl: w.urlOf('fal') }],
    });
    await expect(consent).rejects.toBeInstanceOf(EditInputError);
    await expect(consent).rejects.toThrow(/^No target of this edit can be sent/);
    expect(w.service('fal').log.submits).toEqual([]);
    expect(w.core.history.list({}).items).toHaveLength(2);

    // With another target beside it (Replicate's uploads are private), it goes and the
    // left-out one is said.
    const mixed = await runEdit(deps, {
      prompt: 'make it night',
      inputs,
      targets: [
        { provider: 'fal', model: 'fal-ai/flux-pro/kontext', baseUrl: w.urlOf('fal') },
        {
          provider: 'replicate',
          model: 'black-forest-labs/flux-kontext-pro',
          baseUrl: w.urlOf('replicate'),
        },
      ],
    });
    expect(mixed.records.map((record) => record.compare?.slot)).toEqual([2]);
    expect(mixed.plan.leftOut.map((out) => englishText(out.reason))).toEqual([
      'fal.ai would make the uploaded images public links (anyone with the link can see them): agree to that first, or send them inside the request. Nothing was sent to fal.ai.',
    ]);
    const [uploaded] = await w.core.engine.whenSettled(
      mixed.records.map((record) => record.localId),
    );
    expect(uploaded?.status).toBe('completed');
    expect(acceptedSubmits(w.service('replicate'))).toBe(1);
    expect(w.service('fal').log.submits).toEqual([]);
  });

  it('stores and sends nothing past a hard cap', async () => {
    const w = await compareWorld({ bfl: {} });
    w.core.costs.setPrice({ provider: 'bfl', model: '', unit: 'USD', basis: 'image', micros: 9 });
    w.core.costs.setCap({ period: 'day', unit: 'USD', provider: 'bfl', kind: 'hard', micros: 5 });
    const source = image(2);
    w.core.engine.start({ resume: false });
    await expect(
      runEdit(
        { ...editDeps(w, memoryInputs([source])), engine: w.core.engine },
        {
          prompt: 'a hat',
          inputs: { operation: 'edit', source },
          targets: [{ provider: 'bfl', model: 'flux-kontext-pro', baseUrl: w.urlOf('bfl') }],
        },
      ),
    ).rejects.toBeInstanceOf(SpendingCapError);
    expect(w.core.history.list({}).items).toEqual([]);
    expect(w.service('bfl').log.submits).toEqual([]);
  });
});
