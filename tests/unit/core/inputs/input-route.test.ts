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
    [
      'upload asked, never-upload on',
      fal,
      [image(MB)],
      'upload',
      true,
      'error.inputs.uploadRefused',
    ],
    ['auto, upload only', dashscope, [image(MB)], 'auto', false, 'upload:upload'],
    [
      'auto, upload only, never-upload on',
      dashscope,
      [image(MB)],
      'auto',
      true,
      'error.inputs.uploadRefused',
    ],
    [
      'never asked, upload only',
      dashscope,
      [image(MB)],
      'never',
      false,
      'error.inputs.uploadRefused',
    ],
    [
      'inline asked, upload only',
      dashscope,
      [image(MB)],
      'inline',
      false,
      'error.inputs.tooLargeInline',
    ],
    [
      'upload asked, no upload offered',
      bfl,
      [image(MB)],
      'upload',
      false,
      'error.inputs.tooLargeInline',
    ],
  ])('%s', (_, capabilities, images, asked, never, expected) => {
    expect(said(chooseRoute(capabilities, images, asked, never))).toBe(expected);
  });

  it('takes the upload when one image of several is over the inline limit', () => {
    const replicate = MODEL_CAPABILITIES.replicate['black-forest-labs/flux-kontext-pro']!;
    // Replicate takes data: URIs under 1 MB (its docs), its files API beyond.
    const several = [image(100_000), image(MB + 1)];
    expect(said(chooseRoute(replicate, several, 'auto', false))).toBe('upload:upload');
    expect(said(chooseRoute(replicate, several, 'inline', false))).toBe(
      'error.inputs.tooLargeInline',
    );
    expect(said(chooseRoute(replicate, [image(100_000), image(MB)], 'auto', false))).toBe(
      'inline:data-uri',
    );
  });
});
