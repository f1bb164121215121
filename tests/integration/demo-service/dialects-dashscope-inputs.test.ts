/**
 * DashScope's image editing on the demo: Base64 data URIs inline (no upload, no header), oss://
 * uploads (resolved only with the header, for 48 hours on the demo's clock), every function at
 * known pixels, a mask that is not greyscale, and
 * an input refused by the moderation at the submit.
 */
import { describe, expect, it } from 'vitest';
import type { DemoService } from '../../../electron/demo-service/types';
import type { TestClock } from './helpers';
import { call, send, startDialect } from './dialect-helpers';
import { dashscopeUpload, dataUri, pixelsAt, pngOf, sourcePng, whiteMask } from './input-helpers';

const KEY = 'sk-dash-input-secret';
const ACCOUNTS = [{ account: 'alice', key: KEY }];
const HEADERS = {
  Authorization: `Bearer ${KEY}`,
  'X-DashScope-Async': 'enable',
  'X-DashScope-OssResourceResolve': 'enable',
};
const PATH = '/api/v1/services/aigc/image2image/image-synthesis';

async function run(
  service: DemoService,
  clock: TestClock,
  input: object,
  extra: { parameters?: object; headers?: Record<string, string> } = {},
) {
  const body = {
    model: 'wanx2.1-imageedit',
    input: { prompt: 'warm', ...input },
    parameters: { n: 1, ...extra.parameters },
  };
  const submitted = await send(`${service.url}${PATH}`, body, extra.headers ?? HEADERS);
  if (submitted.status !== 200) return { submitted, url: null };
  clock.advance(10_000);
  const id = (submitted.json as { output: { task_id: string } }).output.task_id;
  const task = await call(`${service.url}/api/v1/tasks/${id}`, { headers: HEADERS });
  const output = (task.json as { output: { task_status: string; results?: { url: string }[] } })
    .output;
  expect(output.task_status).toBe('SUCCEEDED');
  return { submitted, url: output.results![0]!.url };
}

describe('DashScope image inputs', () => {
  it('edits an oss:// upload sent with the resolve header; the storage never saw the key', async () => {
    const { service, clock } = await startDialect({ dialect: 'dashscope', accounts: ACCOUNTS });
    const { oss } = await dashscopeUpload(service, await sourcePng(), KEY);
    const { url } = await run(service, clock, {
      function: 'description_edit',
      base_image_url: oss,
    });
    expect((await pixelsAt(url!)).at(0, 0)).toEqual([63, 40, 150, 255]);
    expect(service.storage.requests.every((entry) => !entry.keySeen)).toBe(true);
  });

  it('edits, fills and upscales Base64 data URIs sent inside the request, without any upload', async () => {
    const { service, clock } = await startDialect({ dialect: 'dashscope', accounts: ACCOUNTS });
    const { 'X-DashScope-OssResourceResolve': _, ...plain } = HEADERS;
    const source = dataUri(await sourcePng());
    const edit = await run(
      service,
      clock,
      { function: 'description_edit', base_image_url: source },
      { headers: plain },
    );
    expect((await pixelsAt(edit.url!)).at(0, 0)).toEqual([63, 40, 150, 255]);
    const fill = await run(
      service,
      clock,
      {
        function: 'description_edit_with_mask',
        base_image_url: source,
        mask_image_url: dataUri(await whiteMask()),
      },
      { headers: plain },
    );
    expect((await pixelsAt(fill.url!)).at(0, 0)).toEqual([255, 0, 255, 255]);
    const up = await run(
      service,
      clock,
      { function: 'super_resolution', base_image_url: source },
      { parameters: { upscale_factor: 2 }, headers: plain },
    );
    expect((await pixelsAt(up.url!)).width).toBe(8);
    expect(service.storage.requests).toEqual([]);
  });

  it('does not resolve oss:// without the header, nor 48 hours after the upload', async () => {
    const { service, clock } = await startDialect({ dialect: 'dashscope', accounts: ACCOUNTS });
    const { oss } = await dashscopeUpload(service, await sourcePng(), KEY);
    const { 'X-DashScope-OssResourceResolve': _, ...plain } = HEADERS;
    const without = await run(
      service,
      clock,
      { function: 'description_edit', base_image_url: oss },
      { headers: plain },
    );
    expect([without.submitted.status, JSON.stringify(without.submitted.json)]).toEqual([
      400,
      expect.stringContaining('could not be fetched'),
    ]);
    // The in-time submit is 48 h − 10 001 ms after the upload; run() then moves 10 s on.
    clock.advance(48 * 3_600_000 - 10_001);
    const inTime = await run(service, clock, { function: 'description_edit', base_image_url: oss });
    expect(inTime.submitted.status).toBe(200);
    clock.advance(1); // now exactly 48 hours after the upload
    const late = await run(service, clock, { function: 'description_edit', base_image_url: oss });
    expect([late.submitted.status, (late.submitted.json as { code: string }).code]).toEqual([
      400,
      'InvalidParameter',
    ]);
  });

  it('fills under a white-edit mask, expands by scales, and upscales', async () => {
    const { service, clock } = await startDialect({ dialect: 'dashscope', accounts: ACCOUNTS });
    const image = (await dashscopeUpload(service, await sourcePng(), KEY)).oss;
    const mask = (await dashscopeUpload(service, await whiteMask(), KEY)).oss;
    const fill = await run(service, clock, {
      function: 'description_edit_with_mask',
      base_image_url: image,
      mask_image_url: mask,
    });
    const filled = await pixelsAt(fill.url!);
    expect([filled.at(0, 0), filled.at(1, 0)]).toEqual([
      [255, 0, 255, 255],
      [60, 0, 200, 255],
    ]);
    const expand = await run(
      service,
      clock,
      { function: 'expand', base_image_url: image },
      { parameters: { top_scale: 2, left_scale: 1.5 } },
    );
    const wide = await pixelsAt(expand.url!);
    expect([wide.width, wide.height, wide.at(2, 3)]).toEqual([6, 6, [0, 0, 200, 255]]);
    const up = await run(
      service,
      clock,
      { function: 'super_resolution', base_image_url: image },
      { parameters: { upscale_factor: 2 } },
    );
    expect((await pixelsAt(up.url!)).width).toBe(8);
  });

  it('refuses a coloured white-edit mask, and moderates a flagged input at the submit', async () => {
    const { service, clock } = await startDialect({ dialect: 'dashscope', accounts: ACCOUNTS });
    const image = (await dashscopeUpload(service, await sourcePng(), KEY)).oss;
    const red = (await dashscopeUpload(service, await pngOf(4, 3, () => [255, 0, 0, 255]), KEY))
      .oss;
    const coloured = await run(service, clock, {
      function: 'description_edit_with_mask',
      base_image_url: image,
      mask_image_url: red,
    });
    expect([coloured.submitted.status, JSON.stringify(coloured.submitted.json)]).toEqual([
      400,
      expect.stringContaining('greyscale'),
    ]);
    const flagged = await run(service, clock, {
      prompt: 'flagged',
      function: 'description_edit',
      base_image_url: image,
    });
    expect([flagged.submitted.status, JSON.stringify(flagged.submitted.json)]).toEqual([
      400,
      expect.stringMatching(/DataInspectionFailed.*input image/),
    ]);
  });
});
