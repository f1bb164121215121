/** The model of an edit or upscale, and the way its inputs go, chosen before anything is sent. */
import { describe, expect, it } from 'vitest';
import { chooseModel, routeOf } from '../../../electron/cli/edit-model';
import { UsageError } from '../../../electron/core/command-line/command-line';
import { capabilitiesOf } from '../../../shared/domain/model-capabilities';
import type { InputImage } from '../../../shared/domain/image-inputs';

const image = (bytes: number): InputImage => ({
  sha256: 'a'.repeat(64),
  mime: 'image/png',
  width: 64,
  height: 64,
  bytes,
});

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error('not refused');
}

describe('chooseModel', () => {
  it('takes the first model of the provider that can do what is asked', () => {
    expect(chooseModel('fal', undefined, { operation: 'edit' }).model).toBe(
      'fal-ai/flux-pro/kontext',
    );
    expect(chooseModel('fal', undefined, { operation: 'fill', masks: ['white-edit'] }).model).toBe(
      'fal-ai/flux-pro/v1/fill',
    );
    expect(chooseModel('replicate', undefined, { operation: 'upscale', factor: 4 }).model).toBe(
      'nightmareai/real-esrgan',
    );
    expect(chooseModel('bfl', undefined, { operation: 'edit', references: 3 }).model).toBe(
      'flux-2-pro',
    );
    expect(
      chooseModel('pictor', undefined, { operation: 'fill', masks: ['alpha-edit'] }).model,
    ).toBe('demo-edit');
  });

  it('names the convention the model reads when the mask is in the other', () => {
    const said = refusal(() =>
      chooseModel('bfl', 'flux-pro-1.0-fill', { operation: 'fill', masks: ['alpha-edit'] }),
    );
    expect(said).toMatch(/reads a white-edit mask .*the --mask file is an alpha-edit mask/);
    expect(said).toMatch(/Nothing was sent\.$/);
  });

  it('names the reference limit, the operations, and the models elsewhere that would do', () => {
    expect(
      refusal(() => chooseModel('bfl', 'flux-2-pro', { operation: 'edit', references: 8 })),
    ).toMatch(/at most 7 reference image\(s\).*there were 8/);
    expect(
      refusal(() => chooseModel('bfl', 'flux-kontext-pro', { operation: 'upscale', factor: 2 })),
    ).toMatch(/does not upscale; it does: edit/);
    expect(
      refusal(() => chooseModel('bfl', undefined, { operation: 'upscale', factor: 2 })),
    ).toMatch(
      /No model of Black Forest Labs can upscale ×2\. Models that can: .*fal fal-ai\/clarity-upscaler/,
    );
    expect(refusal(() => chooseModel('fal', 'fal-ai/flux/schnell', { operation: 'edit' }))).toMatch(
      /takes no image as far as Pictor knows/,
    );
  });
});

describe('routeOf', () => {
  const asked = { route: 'auto', neverUpload: false, consented: false } as const;

  it('goes inline when the model takes it and the images fit', () => {
    const fal = capabilitiesOf('fal', 'fal-ai/flux-pro/kontext')!;
    expect(routeOf('fal', fal, [image(1_000)], asked)).toMatchObject({ route: 'inline' });
  });

  it('asks for consent before a public-link upload, and goes once given', () => {
    const fal = capabilitiesOf('fal', 'fal-ai/flux-pro/kontext')!;
    const upload = { ...asked, route: 'upload' } as const;
    expect(refusal(() => routeOf('fal', fal, [image(1_000)], upload))).toMatch(
      /public link.*--allow-public-upload/,
    );
    expect(routeOf('fal', fal, [image(1_000)], { ...upload, consented: true })).toMatchObject({
      route: 'upload',
      transport: { publicLinks: true },
    });
  });

  it('refuses --inputs never on a model that takes only uploads; a private upload needs no consent', () => {
    const dashscope = capabilitiesOf('dashscope', 'wanx2.1-imageedit')!;
    // No listed model takes only uploads today: DashScope's, without its inline way.
    const uploadOnly = {
      ...dashscope,
      transports: dashscope.transports.filter((transport) => transport.kind === 'upload'),
    };
    expect(
      refusal(() => routeOf('dashscope', uploadOnly, [image(10)], { ...asked, route: 'never' })),
    ).toMatch(/only by upload, and --inputs never forbids uploads/);
    expect(routeOf('dashscope', uploadOnly, [image(10)], asked)).toMatchObject({
      route: 'upload',
    });
  });

  it('sends a DashScope edit inline under --inputs never and inline, by its private upload when too large for the request', () => {
    const dashscope = capabilitiesOf('dashscope', 'wanx2.1-imageedit')!;
    for (const route of ['never', 'inline', 'auto'] as const) {
      expect(routeOf('dashscope', dashscope, [image(20_000)], { ...asked, route })).toMatchObject({
        route: 'inline',
      });
    }
    const large = [image(8 * 1024 * 1024)];
    expect(routeOf('dashscope', dashscope, large, asked)).toMatchObject({ route: 'upload' });
    expect(
      refusal(() => routeOf('dashscope', dashscope, large, { ...asked, route: 'inline' })),
    ).toMatch(
      /^An input image is larger than this model takes inside the request .*: let Pictor upload it/,
    );
  });

  it('refuses inline only when an image is too large for the request', () => {
    const bfl = capabilitiesOf('bfl', 'flux-kontext-pro')!;
    expect(() => routeOf('bfl', bfl, [image(30 * 1024 * 1024)], asked)).toThrow(UsageError);
  });
});

describe('chooseModel without --model, a mask in the other convention', () => {
  it('names the provider’s model that would, and the convention it reads', () => {
    expect(
      refusal(() => chooseModel('pictor', undefined, { operation: 'fill', masks: ['white-edit'] })),
    ).toMatch(/^demo-edit reads an alpha-edit mask .*the --mask file is a white-edit mask/);
    expect(
      refusal(() => chooseModel('fal', undefined, { operation: 'fill', masks: ['alpha-edit'] })),
    ).toMatch(/^fal-ai\/flux-pro\/v1\/fill reads a white-edit mask/);
  });
});
