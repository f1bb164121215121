/**
 * Replicate's image models on the demo: data: URIs and files (`urls.get`), Kontext, Fill (mask
 * and outpaint), the community upscaler by version, refusals and an input's moderation.
 */
import { describe, expect, it } from 'vitest';
import { ESRGAN_VERSION } from '../../../electron/demo-service/dialects/replicate-inputs';
import type { DemoService } from '../../../electron/demo-service/types';
import type { TestClock } from './helpers';
import { call, send, startDialect } from './dialect-helpers';
import { dataUri, pixelsAt, replicateUpload, sourcePng, whiteMask } from './input-helpers';

const KEY = 'r8_input_secret';
const AUTH = { Authorization: `Bearer ${KEY}` };
const ACCOUNTS = [{ account: 'alice', key: KEY }];

interface Prediction {
  status: string;
  model: string;
  version: string;
  output: string | null;
  error: string | null;
  urls: { get: string };
}

async function run(service: DemoService, clock: TestClock, path: string, body: object) {
  const submitted = await send(`${service.url}${path}`, body, AUTH);
  if (submitted.status !== 201) return { submitted, done: null };
  clock.advance(10_000);
  const done = await call((submitted.json as Prediction).urls.get, { headers: AUTH });
  return { submitted, done: done.json as Prediction };
}

const model = (name: string) => `/v1/models/black-forest-labs/${name}/predictions`;

describe('Replicate image inputs', () => {
  it('edits with Kontext: one output URL, the source tinted', async () => {
    const { service, clock } = await startDialect({ dialect: 'replicate', accounts: ACCOUNTS });
    const { done } = await run(service, clock, model('flux-kontext-pro'), {
      input: {
        prompt: 'warm',
        input_image: dataUri(await sourcePng()),
        safety_tolerance: 2,
        output_format: 'png',
      },
    });
    expect(done?.status).toBe('succeeded');
    expect(typeof done?.output).toBe('string');
    expect((await pixelsAt(done!.output!)).at(0, 0)).toEqual([63, 40, 150, 255]);
  });

  it('fills an uploaded file under an uploaded white-edit mask', async () => {
    const { service, clock } = await startDialect({ dialect: 'replicate', accounts: ACCOUNTS });
    const image = await replicateUpload(service, await sourcePng(), KEY);
    const mask = await replicateUpload(service, await whiteMask(), KEY);
    const { done } = await run(service, clock, model('flux-fill-pro'), {
      input: { prompt: 'sky', image: image.urls.get, mask: mask.urls.get, output_format: 'png' },
    });
    const out = await pixelsAt(done!.output!);
    expect(out.at(0, 2)).toEqual([255, 0, 255, 255]);
    expect(out.at(2, 2)).toEqual([120, 160, 200, 255]);
  });

  it('outpaints to the left by half the width, and upscales ×4 by version', async () => {
    const { service, clock } = await startDialect({ dialect: 'replicate', accounts: ACCOUNTS });
    const source = dataUri(await sourcePng());
    const left = await run(service, clock, model('flux-fill-pro'), {
      input: { prompt: 'more', image: source, outpaint: 'Left outpaint' },
    });
    const wide = await pixelsAt(left.done!.output!);
    expect([wide.width, wide.height]).toEqual([6, 3]);
    expect(wide.at(2, 0)).toEqual([0, 0, 200, 255]);
    const up = await run(service, clock, '/v1/predictions', {
      version: ESRGAN_VERSION,
      input: { image: source, scale: 4 },
    });
    expect(up.done).toMatchObject({ model: 'nightmareai/real-esrgan', version: ESRGAN_VERSION });
    const big = await pixelsAt(up.done!.output!);
    expect([big.width, big.height]).toEqual([16, 12]);
    expect(big.at(15, 11)).toEqual([180, 160, 200, 255]);
  });

  it('runs the upscaler by owner/name:version too, and refuses a version Replicate does not have', async () => {
    const { service, clock } = await startDialect({ dialect: 'replicate', accounts: ACCOUNTS });
    const input = { image: dataUri(await sourcePng()), scale: 2 };
    const named = await run(service, clock, '/v1/predictions', {
      version: `nightmareai/real-esrgan:${ESRGAN_VERSION}`,
      input,
    });
    expect(named.done?.status).toBe('succeeded');
    for (const version of ['a'.repeat(64), `nightmareai/real-esrgan:${'b'.repeat(64)}`, 7]) {
      const unknown = await run(service, clock, '/v1/predictions', { version, input });
      expect([unknown.submitted.status, JSON.stringify(unknown.submitted.json)]).toEqual([
        422,
        expect.stringContaining('Invalid version or not permitted'),
      ]);
    }
    expect(service.log.submits.filter((entry) => entry.status === 201)).toHaveLength(1);
  });

  it('refuses a mask of another size, safety_tolerance 5, and another account’s file', async () => {
    const { service, clock } = await startDialect({
      dialect: 'replicate',
      accounts: [...ACCOUNTS, { account: 'bob', key: 'r8_bob' }],
    });
    const source = dataUri(await sourcePng());
    const mask = await run(service, clock, model('flux-fill-pro'), {
      input: { prompt: 'x', image: source, mask: dataUri(await whiteMask(4, 4)) },
    });
    expect([mask.submitted.status, JSON.stringify(mask.submitted.json)]).toEqual([
      422,
      expect.stringContaining('input.mask'),
    ]);
    const unsafe = await run(service, clock, model('flux-kontext-pro'), {
      input: { prompt: 'x', input_image: source, safety_tolerance: 5 },
    });
    expect(unsafe.submitted.status).toBe(422);
    const bobs = await replicateUpload(service, await sourcePng(), 'r8_bob');
    const stolen = await run(service, clock, model('flux-kontext-pro'), {
      input: { prompt: 'x', input_image: bobs.urls.get },
    });
    expect([stolen.submitted.status, JSON.stringify(stolen.submitted.json)]).toEqual([
      422,
      expect.stringContaining('could not be fetched'),
    ]);
  });

  it('fails a flagged input with E005 naming the input image', async () => {
    const { service, clock } = await startDialect({ dialect: 'replicate', accounts: ACCOUNTS });
    const { done } = await run(service, clock, model('flux-kontext-pro'), {
      input: { prompt: 'flagged', input_image: dataUri(await sourcePng()) },
    });
    expect(done?.status).toBe('failed');
    expect(done?.error).toMatch(/input image.*E005/);
  });
});
