/**
 * A compare of the form's model options and seed over loopback through the real core: each target
 * is sent the options its own schema has (under its own names), none it lacks or would refuse,
 * and the plan says per target, before anything is sent, which options it will not take.
 */
import { describe, expect, it } from 'vitest';
import { planCompare } from '../../../electron/core/compare/compare-plan';
import { runCompare } from '../../../electron/core/compare/compare-run';
import { englishText } from '../../../shared/i18n/sentence';
import { compareWorld } from './compare-harness';

describe('a compare carrying the form’s model options', () => {
  it('sends each target the options its schema has, and names those it does not take', async () => {
    const world = await compareWorld({ bfl: {}, dashscope: {} });
    const plan = await planCompare(
      { credentials: world.credentials, costs: world.core.costs },
      {
        prompts: ['a lighthouse at dusk'],
        targets: [
          { provider: 'bfl', model: 'flux-dev', baseUrl: world.urlOf('bfl') },
          { provider: 'dashscope', model: 'wanx2.1-t2i-turbo', baseUrl: world.urlOf('dashscope') },
        ],
        options: {
          provider: 'fal',
          model: 'fal-ai/flux/dev',
          params: { num_inference_steps: 30, guidance_scale: 12, output_format: 'png' },
          seed: 4242,
        },
      },
    );
    const [bfl, dashscope] = plan.targets;
    expect(bfl?.notes.map(englishText)).toEqual([
      'This model does not take “12” for “guidance_scale”: the option is not sent there (its default).',
    ]);
    expect(dashscope?.notes.map(englishText)).toEqual([
      'This model has no option “num_inference_steps”: it is not sent there.',
      'This model has no option “guidance_scale”: it is not sent there.',
      'This model has no option “output_format”: it is not sent there.',
    ]);

    world.core.engine.start({ resume: false });
    const started = await runCompare(world.core.engine, plan);
    await world.core.engine.whenSettled(started.map((record) => record.localId));
    const bflBody = world.service('bfl').log.submits[0]?.body as Record<string, unknown>;
    expect(bflBody).toMatchObject({ steps: 30, output_format: 'png', seed: 4242 });
    expect(bflBody).not.toHaveProperty('guidance');
    expect(bflBody).not.toHaveProperty('guidance_scale');
    const dashBody = world.service('dashscope').log.submits[0]?.body as Record<string, unknown>;
    expect(dashBody).toMatchObject({ parameters: { seed: 4242 } });
    expect(JSON.stringify(dashBody)).not.toMatch(/steps|guidance|output_format/);
  });
});
