/**
 * A published schema is kept in a file (the book of model options) and shown in the window, and
 * a redirect's host is named in a sentence: a service that echoes the key into either (in any
 * encoding: a description, an option's value, a host name) gets neither kept nor named. Over
 * real HTTP on loopback against the demo's Replicate dialect, whose schemas go with the key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../electron/demo-service/cli-args';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService, FaultRule } from '../../../electron/demo-service/types';
import { fetchPublishedSchema } from '../../../electron/core/service/published-schema';
import { testImageEngine } from '../../support/image-engine';
import {
  ENCODINGS,
  ENCODING_NAMES,
  keyScanner,
} from '../../hardening/key-and-bodies/key-encodings';

const KEY = 'r8_schema-echo-Qm3Vt8Lp2Xw6';
let service: DemoService;

beforeAll(async () => {
  const command = parseCliArgs(['--port', '0', '--dialect', 'replicate', '--key', `a:${KEY}`]);
  if (command.kind !== 'run') throw new Error('not a demo command');
  service = await startDemoService({ images: testImageEngine, ...command.options });
});

afterAll(async () => {
  await service.close();
});

/** A schema Pictor reads (an enum and a number), `said` in a description and an option. */
function schemaSaying(said: string): string {
  const mode = { type: 'string', enum: ['fast', said], default: 'fast', description: said };
  const steps = { type: 'integer', minimum: 1, maximum: 50, description: 'Steps.' };
  return JSON.stringify({ components: { schemas: { Input: { properties: { mode, steps } } } } });
}

async function fetched(effect: Record<string, unknown>) {
  service.addFault({ route: 'schema', effect, times: 1 } as FaultRule);
  const credentials = {
    baseUrl: service.url,
    key: KEY,
    keyFingerprint: 'f',
    provider: 'replicate' as const,
  };
  return fetchPublishedSchema({ fetch, heldKeys: undefined }, credentials, 'a/b');
}

describe('a published schema that carries the key', () => {
  it('is read when it carries none (the positive control of the schema used below)', async () => {
    const read = await fetched({ type: 'body', body: schemaSaying('slow') });
    expect(read.ok).toBe(true);
    expect(JSON.stringify(read)).toContain('slow');
  });

  it.each(ENCODING_NAMES)('is not kept, nor its words shown (%s)', async (encoding) => {
    const echo = ENCODINGS[encoding]!(KEY, 1);
    const read = await fetched({ type: 'body', body: schemaSaying(`mode ${echo}`) });
    expect(read).toMatchObject({ ok: false, problem: { key: 'error.params.schemaCarriesKey' } });
    expect(keyScanner(KEY).leaks(JSON.stringify(read))).toEqual([]);
  });

  it('in a redirect’s host is not named', async () => {
    for (const encoding of ['raw', 'hexLower', 'base64url']) {
      const host = `${ENCODINGS[encoding]!(KEY, 0)}.evil.example`;
      const location = `https://${host}/v1/models/a/b`;
      const read = await fetched({ type: 'body', status: 302, body: '', location });
      expect(read, encoding).toMatchObject({
        ok: false,
        problem: { key: 'error.params.schemaMoved' },
      });
      const said = JSON.stringify(read).toLowerCase();
      expect(keyScanner(KEY.toLowerCase()).leaks(said), encoding).toEqual([]);
      expect(said, encoding).toContain('evil.example');
    }
  });
});
