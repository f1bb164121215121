/**
 * chooseRoute, every branch: the model's own limit first, then inline when offered and every
 * image fits, else upload as the asked route and "never upload inputs" allow, else why not.
 */
import { describe, expect, it } from 'vitest';
import type { InputImage, InputRoute } from '../../../../shared/domain/image-inputs';
import { MODEL_CAPABILITIES } from '../../../../shared/domain/model-capabilities';
import { chooseRoute } from '../../../../electron/core/inputs/input-route';

const MB = 1024 * 1024;
const image = (bytes: number, side = 1024): InputImage => ({
  sha256: 'a'.repeat(64),
  mime: 'image/png',
  width: side,
  height: side,
  bytes,
});
const fal = MODEL_CAPABILITIES.fal['fal-ai/flux-pro/kontext']!;
const bfl = MODEL_CAPABILITIES.bfl['flux-kontext-pro']!;
const dashscope = MODEL_CAPABILITIES.dashscope['wanx2.1-imageedit']!;
/** A model that takes its images only by upload (none listed does today; the rule still holds). */
const uploadOnly = {
  ...dashscope,
  transports: dashscope.transports.filter((t) => t.kind === 'upload'),
};
/** A model whose inline limit is below its own (none listed does today). */
const inlineOnly = { ...fal, transports: [{ kind: 'data-uri' as const, maxBytes: 2 * MB }] };

function said(choice: ReturnType<typeof chooseRoute>): string {
  if ('refused' in choice) return choice.refused.key;
  return `${choice.route}:${choice.transport.kind}`;
}

describe('chooseRoute', () => {
  it.each<[string, typeof fal, InputImage[], InputRoute, boolean, string]>([
    ['over the model’s bytes', fal, [image(11 * MB)], 'auto', false, 'error.inputs.tooLarge'],
    ['over the model’s side', fal, [image(MB, 4097)], 'auto', false, 'error.inputs.tooLarge'],
    ['auto, fits inline', fal, [image(MB)], 'auto', false, 'inline:data-uri'],
    ['auto, fits inline under never-upload', fal, [image(MB)], 'auto', true, 'inline:data-uri'],
    ['inline asked, fits', bfl, [image(MB)], 'inline', false, 'inline:inline-base64'],
    ['never asked, fits', bfl, [image(MB)], 'never', false, 'inline:inline-base64'],
    ['upload asked, fits inline', fal, [image(MB)], 'upload', false, 'upload:upload'],
    // The model takes inline: "only by upload" would be false; the task's own ask is in the way.
    ['upload asked, never-upload on', fal, [image(MB)], 'upload', true, 'error.inputs.uploadOff'],
    // A model with no upload at all: it is not "too large", the model takes none.
    ['upload asked, no upload offered', bfl, [image(MB)], 'upload', false, 'error.inputs.noUpload'],
    // DashScope documents Base64 data URIs: a small edit goes inline whatever the setting.
    ['dashscope auto, fits inline', dashscope, [image(20_000)], 'auto', false, 'inline:data-uri'],
    ['dashscope inline asked', dashscope, [image(20_000)], 'inline', false, 'inline:data-uri'],
    ['dashscope never asked', dashscope, [image(20_000)], 'never', false, 'inline:data-uri'],
    ['dashscope under never-upload', dashscope, [image(20_000)], 'auto', true, 'inline:data-uri'],
    // Its inline limit keeps the base64 text within the 10 MB it takes: beyond, the upload.
    ['dashscope auto, over inline', dashscope, [image(8 * MB)], 'auto', false, 'upload:upload'],
    [
      'dashscope inline asked, over inline',
      dashscope,
      [image(8 * MB)],
      'inline',
      false,
      'error.inputs.inlineTooLarge',
    ],
    [
      'dashscope over inline, never-upload on',
      dashscope,
      [image(8 * MB)],
      'auto',
      true,
      'error.inputs.inlineTooLargeUploadsOff',
    ],
    [
      'dashscope over inline, never asked',
      dashscope,
      [image(8 * MB)],
      'never',
      false,
      'error.inputs.inlineTooLargeUploadsOff',
    ],
    ['upload only, auto', uploadOnly, [image(MB)], 'auto', false, 'upload:upload'],
    [
      'upload only, never-upload on',
      uploadOnly,
      [image(MB)],
      'auto',
      true,
      'error.inputs.uploadRefused',
    ],
    [
      'upload only, never asked',
      uploadOnly,
      [image(MB)],
      'never',
      false,
      'error.inputs.uploadRefused',
    ],
    // Not "too large": the model takes nothing inside the request.
    [
      'upload only, inline asked',
      uploadOnly,
      [image(MB)],
      'inline',
      false,
      'error.inputs.onlyUpload',
    ],
    [
      'inline only, over its limit',
      inlineOnly,
      [image(3 * MB)],
      'auto',
      false,
      'error.inputs.tooLargeInline',
    ],
  ])('%s', (_, capabilities, images, asked, never, expected) => {
    expect(said(chooseRoute(capabilities, images, asked, never))).toBe(expected);
  });

  it('names the inline limit where an image is over it', () => {
    const choice = chooseRoute(dashscope, [image(8 * MB)], 'inline', false);
    expect(choice).toEqual({
      refused: expect.objectContaining({ params: { bytes: Math.floor((10 * MB * 3) / 4) } }),
    });
  });

  it('takes the upload when one image of several is over the inline limit', () => {
    const replicate = MODEL_CAPABILITIES.replicate['black-forest-labs/flux-kontext-pro']!;
    // Replicate takes data: URIs under 1 MB (its docs), its files API beyond.
    const several = [image(100_000), image(MB + 1)];
    expect(said(chooseRoute(replicate, several, 'auto', false))).toBe('upload:upload');
    expect(said(chooseRoute(replicate, several, 'inline', false))).toBe(
      'error.inputs.inlineTooLarge',
    );
    expect(said(chooseRoute(replicate, [image(100_000), image(MB)], 'auto', false))).toBe(
      'inline:data-uri',
    );
  });
});
