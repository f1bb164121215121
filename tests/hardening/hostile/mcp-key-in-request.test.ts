/**
 * `pictor mcp` sends nothing an agent wrote that carries a key the server holds: its service's,
 * or another provider's (PICTOR_KEY_<PROVIDER>, which must never reach this service). generate
 * refused a key in its prompt and template values only: one in the model's options (a negative
 * prompt is free text) or the model's name went out, and compare, which sends one prompt to up to
 * six services, looked for none. Every text of a submit's input is now searched, in every
 * encoding the key's finder knows, by one check the two tools share. The real CLI over stdio,
 * the demo's fal dialect on loopback.
 */
import { describe, expect, it } from 'vitest';
import { carriesKey } from '../../../electron/core/secrets/key-echo';
import { mcpLibrary, refusalOf } from '../../integration/mcp/mcp-harness';

const KEY = 'sk-mcp-own-Tq7Wn2Lp9Xv4Rb6Kz1';
const OTHER = 'r8_Other9Zx3Cv7Bn1Mq5Lk2Jh4Gf';
const lib = mcpLibrary(KEY, 'mcp-key-req');

const FLUX = 'fal-ai/flux/dev';
const IMAGEN = 'fal-ai/imagen4/preview';
const BOTH = [
  { service: 'fal', model: FLUX },
  { service: 'fal', model: IMAGEN },
];
/** A compare's options are typed by its first target's model: imagen's has a negative prompt. */
const IMAGEN_FIRST = [...BOTH].reverse();

describe('a key in what an agent asks pictor mcp to send', () => {
  it('is refused in any field of generate and compare, and nothing is sent', async () => {
    const demo = await lib.demo({ durationMs: 100, dialect: 'fal' });
    const args = ['--provider', 'fal', '--base-url', demo.url, '--poll-interval', '0.1'];
    const mcp = await lib.serve(args, { env: { PICTOR_KEY_REPLICATE: OTHER } });
    const calls: [string, Record<string, unknown>][] = [];
    for (const key of [KEY, OTHER]) {
      calls.push(
        ['generate', { prompt: 'a wren', model: IMAGEN, params: { negative_prompt: `no ${key}` } }],
        ['generate', { prompt: 'a wren', model: `${FLUX}?k=${key}` }],
        ['generate', { prompt: 'a wren', quality: key }],
        ['compare', { prompt: `a heron ${key}`, targets: BOTH }],
        ['compare', { prompt: `a heron ${[...key].join(' ')}`, targets: BOTH }],
        ['compare', { prompt: 'a heron', targets: IMAGEN_FIRST, params: { negative_prompt: key } }],
        ['compare', { prompt: 'a heron', targets: [BOTH[0], { service: 'fal', model: key }] }],
      );
    }
    // Each call that sent something, or was refused for another reason than the key.
    const passed: string[] = [];
    for (const [tool, input] of calls) {
      const before = demo.log.submits.length;
      const result = await mcp.call(tool, input);
      const refused = !(result instanceof Error) && result.isError === true;
      const why = refused ? refusalOf(result) : 'answered';
      if (demo.log.submits.length > before || !why.includes('API key'))
        passed.push(`${tool} ${Object.keys(input).join(',')}: ${why.slice(0, 60)}`);
    }
    expect(passed, `${String(passed.length)} of ${String(calls.length)}`).toEqual([]);
    const bodies = JSON.stringify(demo.log.submits.map((entry) => entry.body));
    expect(carriesKey(bodies, [KEY, OTHER])).toBe(false);
    expect(carriesKey(mcp.said(), [KEY, OTHER])).toBe(false);
  }, 120_000);
});
