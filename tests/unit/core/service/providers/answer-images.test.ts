/**
 * Every profile reads the images of each model family it lists (generate, edit, fill, expand,
 * upscale) in the shape its service documents for that model, single or plural, through the one
 * reader (image-list.ts); and what cannot be used is said (an entry without an address), never
 * silently dropped. Each row names where its shape is documented.
 */
import { describe, expect, it } from 'vitest';
import type { ProviderId } from '../../../../../shared/domain/providers';
import { MODEL_CAPABILITIES } from '../../../../../shared/domain/model-capabilities';
import type { ServiceTask } from '../../../../../shared/service/wire';
import { imageList, imagesIn } from '../../../../../electron/core/service/providers/image-list';
import { profileOf } from '../../../../../electron/core/service/providers/profiles';
import { parseTaskAnswer } from '../../../../support/answer-parsers';

const KEY = 'sk-answer-images-key';
const A = 'https://cdn.example/a.png';
const B = 'https://cdn.example/b.png';

/** The answer as the service client reads it: the profile's reading (fal: its result's), checked. */
function read(provider: ProviderId, answer: unknown): ServiceTask {
  const profile = profileOf(provider);
  return parseTaskAnswer(JSON.stringify(answer), KEY, (json) =>
    provider === 'fal' && profile.readResult
      ? profile.readResult(json, 200)
      : profile.readPoll(json, 'task-1'),
  );
}

function urlsOf(task: ServiceTask): readonly (string | null)[] {
  if (task.status !== 'completed') throw new Error(`not completed: ${JSON.stringify(task)}`);
  return task.imageUrls;
}

const falImage = (url: string) => ({ url, width: 1024, height: 768, content_type: 'image/png' });

type Family = 'generate' | 'edit' | 'fill' | 'expand' | 'upscale';

/** [provider, family, model, documented answer, the images it lists, where it is documented]. */
const SHAPES: readonly [ProviderId, Family, string, unknown, readonly string[], string][] = [
  // fal: the result behind `response_url`. Its JS client's endpoint types (@fal-ai/client,
  // src/types/endpoints.ts) and model pages: FLUX models answer `images: Image[]`,
  // ClarityUpscalerOutput is `{ image: Image; seed; timings }`.
  [
    'fal',
    'generate',
    'fal-ai/flux/schnell',
    { images: [falImage(A), falImage(B)], seed: 7, has_nsfw_concepts: [false, false], prompt: 'p' },
    [A, B],
    'fal client types, FluxSchnellOutput: images: Array<Image>',
  ],
  [
    'fal',
    'edit',
    'fal-ai/flux-pro/kontext',
    { images: [falImage(A)], seed: 7, has_nsfw_concepts: [false], prompt: 'p' },
    [A],
    'fal model page fal-ai/flux-pro/kontext/api#schema-output: images: Image[]',
  ],
  [
    'fal',
    'fill',
    'fal-ai/flux-pro/v1/fill',
    { images: [falImage(A)], seed: 7, has_nsfw_concepts: [false], prompt: 'p' },
    [A],
    'fal FLUX.1 [pro] Fill answers images: Image[], as fal FLUX endpoints do',
  ],
  [
    'fal',
    'expand',
    'fal-ai/flux-2-pro/outpaint',
    { images: [falImage(A)], seed: 7 },
    [A],
    'fal FLUX endpoints answer images: Image[] (this page not checked here: the plural form)',
  ],
  [
    'fal',
    'upscale',
    'fal-ai/clarity-upscaler',
    { image: falImage(A), seed: 7, timings: { inference: 2.1 } },
    [A],
    'fal client types, ClarityUpscalerOutput: { image: Image; seed: number; timings }',
  ],
  // Replicate: the prediction's `output`, as each model's output schema says (its API page):
  // FLUX schnell/dev a list of URIs; FLUX Kontext, FLUX Fill and Real-ESRGAN one URI.
  [
    'replicate',
    'generate',
    'black-forest-labs/flux-schnell',
    { id: 'p1', status: 'succeeded', output: [A, B], input: {} },
    [A, B],
    'Replicate flux-schnell output schema: { type: array, items: { format: uri } }',
  ],
  [
    'replicate',
    'edit',
    'black-forest-labs/flux-kontext-pro',
    { id: 'p1', status: 'succeeded', output: A, input: {} },
    [A],
    'Replicate flux-kontext-pro output schema: { type: string, format: uri }',
  ],
  [
    'replicate',
    'fill',
    'black-forest-labs/flux-fill-pro',
    { id: 'p1', status: 'succeeded', output: A, input: {} },
    [A],
    'Replicate flux-fill-pro output schema: { type: string, format: uri }',
  ],
  [
    'replicate',
    'expand',
    'black-forest-labs/flux-fill-pro',
    { id: 'p1', status: 'succeeded', output: A, input: { outpaint: 'Zoom out 2x' } },
    [A],
    'Replicate flux-fill-pro output schema (outpaint is the same model)',
  ],
  [
    'replicate',
    'upscale',
    'nightmareai/real-esrgan',
    { id: 'p1', status: 'succeeded', output: A, input: {} },
    [A],
    'Replicate real-esrgan output schema: { type: string, format: uri }',
  ],
  // DashScope: the task result's `output.results[].url` (Model Studio API references:
  // text-to-image, and "Wan general image editing" for wanx2.1-imageedit, every function).
  ...(['generate', 'edit', 'fill', 'expand', 'upscale'] as const).map(
    (family): [ProviderId, Family, string, unknown, readonly string[], string] => [
      'dashscope',
      family,
      family === 'generate' ? 'wanx2.1-t2i-turbo' : 'wanx2.1-imageedit',
      {
        request_id: 'r1',
        output: { task_id: 't1', task_status: 'SUCCEEDED', results: [{ url: A }] },
        usage: { image_count: 1 },
      },
      [A],
      'DashScope task result: output.results[].url',
    ],
  ),
  // BFL: `get_result` answers `result.sample`, one signed URL, for every model (its API
  // reference, "Get Result"); BFL lists no upscaler.
  ...(
    [
      ['generate', 'flux-pro-1.1'],
      ['edit', 'flux-kontext-pro'],
      ['edit', 'flux-kontext-max'],
      ['edit', 'flux-2-pro'],
      ['fill', 'flux-pro-1.0-fill'],
      ['expand', 'flux-pro-1.0-expand'],
    ] as const
  ).map(([family, model]): [ProviderId, Family, string, unknown, readonly string[], string] => [
    'bfl',
    family,
    model,
    { id: 't1', status: 'Ready', result: { sample: A, seed: 3 } },
    [A],
    'BFL get_result: result.sample',
  ]),
  // Today's contract (docs/SERVICE.md): `output.data[].url`, for the demo's edit model too.
  ...(
    [
      ['generate', 'any-model'],
      ['edit', 'demo-edit'],
      ['fill', 'demo-edit'],
      ['upscale', 'demo-edit'],
    ] as const
  ).map(([family, model]): [ProviderId, Family, string, unknown, readonly string[], string] => [
    'pictor',
    family,
    model,
    { id: 't1', status: 'completed', output: { data: [{ url: A }] } },
    [A],
    'docs/SERVICE.md: output.data[].url',
  ]),
];

describe('the images of every model family, in the shape its service documents', () => {
  it.each(SHAPES)('%s %s (%s)', (provider, _family, _model, answer, urls, _source) => {
    expect(urlsOf(read(provider, answer))).toEqual(urls);
  });

  it('covers every model with images each profile lists, in every operation it does', () => {
    const families: Record<string, Family> = {
      edit: 'edit',
      fill: 'fill',
      outpaint: 'expand',
      upscale: 'upscale',
    };
    const covered = new Set(SHAPES.map(([p, family, model]) => `${p} ${family} ${model}`));
    for (const [provider, models] of Object.entries(MODEL_CAPABILITIES)) {
      for (const [model, capabilities] of Object.entries(models)) {
        for (const operation of capabilities.operations) {
          expect(covered).toContain(`${provider} ${families[operation]} ${model}`);
        }
      }
    }
  });
});

describe('single and plural forms, read the same way by every profile', () => {
  it.each<[string, ProviderId, unknown]>([
    ['fal, one image object', 'fal', { image: falImage(A) }],
    ['fal, a list of one', 'fal', { images: [falImage(A)] }],
    ['replicate, one URI', 'replicate', { status: 'succeeded', output: A }],
    ['replicate, a list of one', 'replicate', { status: 'succeeded', output: [A] }],
    [
      'dashscope, one result object',
      'dashscope',
      { output: { task_status: 'SUCCEEDED', results: { url: A } } },
    ],
    ['bfl, a list of one', 'bfl', { status: 'Ready', result: { sample: [A] } }],
    ['pictor, one entry', 'pictor', { status: 'completed', output: { data: { url: A } } }],
    ['pictor, one link', 'pictor', { status: 'completed', output: { data: A } }],
  ])('%s', (_, provider, answer) => {
    expect(urlsOf(read(provider, answer))).toEqual([A]);
  });

  it('says what cannot be used: an image there without a link keeps its place, without an address', () => {
    expect(urlsOf(read('fal', { image: { file_name: 'a.png' } }))).toEqual([null]);
    expect(urlsOf(read('fal', { image: 42 }))).toEqual([null]);
    expect(urlsOf(read('replicate', { status: 'succeeded', output: [A, 7, B] }))).toEqual([
      A,
      null,
      B,
    ]);
    expect(urlsOf(read('bfl', { status: 'Ready', result: { sample: { path: 'x' } } }))).toEqual([
      null,
    ]);
    // Absent: none listed (the task then says it completed without images).
    expect(urlsOf(read('fal', { seed: 1 }))).toEqual([]);
    expect(urlsOf(read('fal', { images: null, image: null }))).toEqual([]);
  });

  it('prefers the plural form where an answer has both', () => {
    expect(imagesIn({ images: [{ url: A }], image: { url: B } }, ['images', 'image'])).toEqual({
      data: [{ url: A }],
    });
    expect(imagesIn({ images: null, image: { url: B } }, ['images', 'image'])).toEqual({
      data: [{ url: B }],
    });
  });

  it('keeps the whole entry where the profile asks (an inline b64_json stays readable)', () => {
    const entry = { b64_json: 'iVBORw0KGgo=', revised_prompt: 'x' };
    expect(imageList(entry, (whole) => whole)).toEqual([entry]);
    expect(imageList([entry, A], (whole) => whole)).toEqual([entry, { url: A }]);
  });
});
