/**
 * The plan of an edit through the real core and the compare credentials (demo services on
 * loopback): a model that cannot do the edit left out naming the models that would, each target's
 * route (inline, an upload that is private, an upload to public links and whether the user must
 * agree first, uploads turned off, an image too large), the safety tolerance clamped as a note,
 * the hard cap refusing it all, and inputs the store does not hold (or holds at another size)
 * refused before anything is stored or sent.
 */
import { describe, expect, it } from 'vitest';
import { englishText } from '../../../../shared/i18n/sentence';
import { EditInputError, planEdit, type EditInput } from '../../../../electron/core/edit/edit-plan';
import { acceptedSubmits, compareWorld } from '../../compare/compare-harness';
import { editDeps, image, memoryInputs } from './edit-world';

const MB = 1024 * 1024;

async function world() {
  return compareWorld({ fal: {}, bfl: {}, replicate: {}, dashscope: {} });
}

describe('planning an edit', () => {
  it('leaves out a model that cannot edit, naming those that can, and says how each target’s inputs travel', async () => {
    const w = await world();
    const source = image(1, { bytes: 2 * MB });
    const store = memoryInputs([source]);
    const plan = await planEdit(editDeps(w, store), {
      prompt: 'make the sky orange',
      inputs: { operation: 'edit', source, safety: 5 },
      targets: [
        { provider: 'bfl', model: 'flux-kontext-pro', baseUrl: w.urlOf('bfl') },
        { provider: 'bfl', model: 'flux-pro-1.0-fill', baseUrl: w.urlOf('bfl') },
        { provider: 'fal', model: 'fal-ai/flux-pro/kontext', baseUrl: w.urlOf('fal') },
        { provider: 'dashscope', model: 'wanx2.1-imageedit', baseUrl: w.urlOf('dashscope') },
        {
          provider: 'replicate',
          model: 'black-forest-labs/flux-kontext-pro',
          baseUrl: w.urlOf('replicate'),
        },
      ],
    });
    expect(plan.refusal).toBeUndefined();
    expect(plan.leftOut.map((out) => out.slot)).toEqual([2]);
    const cannot = englishText(plan.leftOut[0]!.reason);
    expect(cannot).toMatch(/^flux-pro-1\.0-fill cannot do what this edit asks/);
    expect(cannot).toContain('Black Forest Labs · flux-kontext-pro');
    expect(cannot).toContain('fal.ai · fal-ai/flux-pro/kontext');
    expect(cannot).not.toContain('flux-pro-1.0-fill,');
    const bySlot = new Map(plan.targets.map((target) => [target.slot, target]));
    expect(bySlot.get(1)?.inputs).toEqual({
      route: 'inline',
      publicLinks: false,
      consentNeeded: false,
    });
    expect(bySlot.get(3)?.inputs.route).toBe('inline');
    // DashScope takes Base64 data URIs (its image field formats): 2 MB goes inside the request.
    expect(bySlot.get(4)?.inputs).toEqual({
      route: 'inline',
      publicLinks: false,
      consentNeeded: false,
    });
    // 2 MB is past Replicate's inline data: URIs (under 1 MB, its docs say): its files upload,
    // kept a day.
    expect(bySlot.get(5)?.inputs).toMatchObject({ route: 'upload', lifetimeMs: 24 * 3_600_000 });
    // Kontext allows 2 with an input image: said once for each Kontext target.
    expect(bySlot.get(1)?.notes.map(englishText)).toEqual([
      'Black Forest Labs allows a safety tolerance of at most 2 with an input image: 5 is sent as 2.',
    ]);
    expect(bySlot.get(4)?.notes).toEqual([]);
    // Every request carries the inputs, as the store knows them.
    for (const target of plan.targets) {
      expect(target.requests).toHaveLength(1);
      expect(target.requests[0]?.inputs?.source).toEqual(source);
    }
    expect(w.core.history.list({}).items).toEqual([]);
    expect(acceptedSubmits(w.service('bfl'))).toBe(0);
  });

  it('asks for consent before public links, and takes it once given', async () => {
    const w = await world();
    const source = image(2, { bytes: 2 * MB });
    const store = memoryInputs([source]);
    const input: EditInput = {
      prompt: 'a hat',
      inputs: { operation: 'edit', source, route: 'upload' },
      targets: [{ provider: 'fal', model: 'fal-ai/flux-pro/kontext', baseUrl: w.urlOf('fal') }],
    };
    const asked = await planEdit(editDeps(w, store), input);
    expect(asked.targets[0]?.inputs).toEqual({
      route: 'upload',
      publicLinks: true,
      consentNeeded: true,
    });
    // Planned to be sent, it is left out with its sentence, never uploaded quietly.
    const toSend = await planEdit(editDeps(w, store), input, { toSend: true });
    expect(toSend.targets).toEqual([]);
    expect(englishText(toSend.leftOut[0]!.reason)).toMatch(/^fal\.ai would make the uploaded/);
    expect(englishText(toSend.refusal!)).toMatch(/^No target of this edit can be sent/);
    const agreed = await planEdit(editDeps(w, store, { publicUploadConsent: ['fal'] }), input, {
      toSend: true,
    });
    expect(agreed.targets[0]?.inputs.consentNeeded).toBe(false);
  });

  it('leaves out a model an image would need an upload for when uploads are turned off, and any model an image is too large for', async () => {
    const w = await world();
    const source = image(3, { bytes: 12 * MB });
    const store = memoryInputs([source]);
    const plan = await planEdit(editDeps(w, store, { neverUploadInputs: true }), {
      prompt: 'a hat',
      inputs: { operation: 'edit', source },
      targets: [
        { provider: 'dashscope', model: 'wanx2.1-imageedit', baseUrl: w.urlOf('dashscope') },
        { provider: 'fal', model: 'fal-ai/flux-pro/kontext', baseUrl: w.urlOf('fal') },
        { provider: 'bfl', model: 'flux-kontext-pro', baseUrl: w.urlOf('bfl') },
      ],
    });
    expect(plan.targets.map((target) => target.slot)).toEqual([3]);
    const [dashscope, fal] = plan.leftOut.map((out) => englishText(out.reason));
    // DashScope's 10 MB limit is passed before the route is looked at.
    expect(dashscope).toMatch(/larger than this model takes/);
    expect(fal).toMatch(/larger than this model takes/);
    const small = image(4, { bytes: 1 * MB });
    const large = image(5, { bytes: 8 * MB });
    const dashscopeOf = (input: typeof small) =>
      planEdit(editDeps(w, memoryInputs([input]), { neverUploadInputs: true }), {
        prompt: 'a hat',
        inputs: { operation: 'edit', source: input },
        targets: [
          { provider: 'dashscope', model: 'wanx2.1-imageedit', baseUrl: w.urlOf('dashscope') },
        ],
      });
    // 1 MB goes inside the request, uploads or not.
    expect((await dashscopeOf(small)).targets[0]?.inputs.route).toBe('inline');
    // 8 MB is within the model's 10 MB but past what goes inside the request: it would need the
    // upload, which is turned off; the sentence says both, and not that the model takes no upload.
    const off = englishText((await dashscopeOf(large)).leftOut[0]!.reason);
    expect(off).toMatch(/larger than this model takes inside the request/);
    expect(off).toMatch(/uploads are turned off/);
    expect(off).not.toMatch(/only by upload|takes no upload/);
  });

  it('refuses past a hard cap, as a compare does', async () => {
    const w = await world();
    const { costs } = w.core;
    costs.setPrice({ provider: 'bfl', model: '', unit: 'USD', basis: 'image', micros: 40_000 });
    costs.setCap({ period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 50_000 });
    const source = image(5, { bytes: 1 * MB });
    const plan = await planEdit(editDeps(w, memoryInputs([source])), {
      prompt: 'a hat',
      inputs: { operation: 'edit', source },
      targets: [
        { provider: 'bfl', model: 'flux-kontext-pro', baseUrl: w.urlOf('bfl') },
        { provider: 'bfl', model: 'flux-kontext-max', baseUrl: w.urlOf('bfl') },
      ],
    });
    expect(plan.totals.total.micros.USD).toBe(80_000);
    expect(plan.overCap).toBe(true);
    expect(englishText(plan.refusal!)).toMatch(/cap/i);
  });

  it('refuses inputs the store does not hold, or holds at another size, before anything is stored', async () => {
    const w = await world();
    const source = image(6, { width: 64, height: 64 });
    const mask = image(7, { width: 64, height: 64 });
    const target = {
      provider: 'bfl' as const,
      model: 'flux-pro-1.0-fill',
      baseUrl: w.urlOf('bfl'),
    };
    const missing = planEdit(editDeps(w, memoryInputs([source])), {
      prompt: 'a hat',
      inputs: { operation: 'fill', source, mask },
      targets: [target],
    });
    await expect(missing).rejects.toBeInstanceOf(EditInputError);
    await expect(missing).rejects.toMatchObject({ code: 'not_found' });
    // The page says the mask is the source's size; the store knows better.
    const stored = memoryInputs([source, { ...mask, width: 32, height: 32 }]);
    await expect(
      planEdit(editDeps(w, stored), {
        prompt: 'a hat',
        inputs: { operation: 'fill', source, mask },
        targets: [target],
      }),
    ).rejects.toThrow(/do not fit together/);
    // A path where a digest goes is no input at all.
    await expect(
      planEdit(editDeps(w, stored), {
        prompt: 'a hat',
        inputs: { operation: 'edit', source: { ...source, sha256: '../../etc/passwd' } },
        targets: [target],
      }),
    ).rejects.toThrow(/^This edit is not valid/);
    await expect(
      planEdit(editDeps(w, stored), {
        prompt: 'a hat',
        inputs: { operation: 'edit', source },
        targets: [],
      }),
    ).rejects.toThrow('An edit takes 1 to 6 targets; this one has 0. Nothing was sent.');
    expect(w.core.history.list({}).items).toEqual([]);
  });
});
