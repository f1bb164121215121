/**
 * `pictor compare --param KEY=VALUE --seed N`, through the CLI's entry in this process, against
 * the demo's fal, Replicate and BFL dialects on loopback: the options are typed for the first
 * target's model and each target's submit body carries them under its own schema's names (the
 * same name, or the one with the same hint: fal's guidance_scale is Replicate's guidance), with
 * the seed; what a target does not take is said on stderr and not sent; a value the first
 * target's model refuses is its sentence with exit 2, nothing sent.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { describeRun, runCliHere } from './run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An address where nothing listens: the network is dead there. */
const CLOSED_PORT = 'http://127.0.0.1:9';

const KEYS = { fal: 'fal-opts-key-2c7e', replicate: 'r8_opts-key-91fd', bfl: 'bfl-opts-key-4a06' };
type Dialect = keyof typeof KEYS;

/** The demo's three dialects on loopback; `dead`'s --base-url names a closed port instead. */
async function world(dead?: Dialect) {
  const services = {} as Record<Dialect, DemoService>;
  for (const dialect of Object.keys(KEYS) as Dialect[]) {
    services[dialect] = await startDemoService({
      dialect,
      accounts: [{ account: 'alice', key: KEYS[dialect] }],
      durationMs: { min: 100, max: 200 },
    });
  }
  const home = await tempFolder('compare-options');
  cleanups.push(async () => {
    for (const service of Object.values(services)) await service.close();
    await removeFolder(home);
  });
  const urls = (Object.keys(KEYS) as Dialect[]).flatMap((dialect) => [
    '--base-url',
    `${dialect}=${dialect === dead ? CLOSED_PORT : services[dialect].url}`,
  ]);
  const env = {
    PICTOR_KEY_FAL: KEYS.fal,
    PICTOR_KEY_REPLICATE: KEYS.replicate,
    PICTOR_KEY_BFL: KEYS.bfl,
  };
  const cli = (args: readonly string[]) =>
    runCliHere([...args, ...urls, '--data-dir', join(home, 'data'), '--poll-interval', '0.2'], {
      home,
      env,
    });
  return { services, cli };
}

const TARGETS = [
  'fal:fal-ai/flux/dev',
  'replicate:black-forest-labs/flux-dev',
  'bfl:flux-pro-1.1',
].flatMap((target) => ['--target', target]);

/** The JSON bodies a service's submits carried. */
const bodies = (service: DemoService) => service.log.submits.map((entry) => entry.body);

describe('pictor compare with the model’s options', () => {
  it('sends each target the options under its own names, with the seed, and says what one does not take', async () => {
    const { services, cli } = await world();
    const run = await cli([
      'compare',
      '--prompt',
      'a heron',
      ...TARGETS,
      '--param',
      'num_inference_steps=12',
      '--param',
      'guidance_scale=4.5',
      '--param',
      'output_format=png',
      '--seed',
      '77',
    ]);
    expect(run.code, describeRun(run)).toBe(0);
    expect(bodies(services.fal)).toEqual([
      expect.objectContaining({
        prompt: 'a heron',
        num_inference_steps: 12,
        guidance_scale: 4.5,
        output_format: 'png',
        seed: 77,
      }),
    ]);
    expect(bodies(services.replicate)).toEqual([
      {
        input: expect.objectContaining({
          prompt: 'a heron',
          num_inference_steps: 12,
          guidance: 4.5,
          output_format: 'png',
          seed: 77,
        }),
      },
    ]);
    const [bfl] = bodies(services.bfl);
    expect(bfl).toMatchObject({ prompt: 'a heron', output_format: 'png', seed: 77 });
    expect(bfl).not.toHaveProperty('num_inference_steps');
    expect(bfl).not.toHaveProperty('guidance_scale');
    expect(run.stderr).toContain(
      'Black Forest Labs · flux-pro-1.1: This model has no option “num_inference_steps”: it is not sent there.',
    );
    expect(run.stderr).toContain('has no option “guidance_scale”: it is not sent there.');
    // A note names no target: the line's label does, once.
    expect(run.stderr).not.toContain('flux-pro-1.1: Black Forest Labs');
    for (const key of Object.values(KEYS)) expect(run.stdout + run.stderr).not.toContain(key);
  }, 120_000);

  it.each([
    [
      ['--param', 'num_inference_steps=99'],
      'The option “num_inference_steps” takes a whole number from 1 to 50.',
    ],
    [['--param', 'output_format=gif'], 'The option “output_format” takes one of: jpeg, png.'],
    [['--param', 'cfg=2'], 'The model fal-ai/flux/dev has no option “cfg”.'],
    [['--seed', 'x'], '--seed takes a whole number'],
  ])(
    'refuses %j for the first target’s model: its sentence, exit 2, nothing sent',
    async (args, said) => {
      const { services, cli } = await world();
      const run = await cli(['compare', '--prompt', 'a heron', ...TARGETS, ...args]);
      expect(run.code, describeRun(run)).toBe(2);
      expect(run.stderr).toContain(said);
      for (const service of Object.values(services)) expect(bodies(service)).toEqual([]);
    },
  );
});

/** The schema requests a service received, with the header its key is read from. */
const schemaAsks = (service: DemoService) =>
  service.log.requests.filter((entry) => entry.route === 'schema');

/** Every header value any request to `service` carried, as one text. */
const headersOf = (service: DemoService) =>
  service.log.requests.map((entry) => Object.values(entry.headers).join('\n')).join('\n');

describe('pictor compare on a model’s first use', () => {
  const FETCHED_ONLY = ['--param', 'acceleration=high'];

  it('fetches each target’s published options first, each with its own key to its own address only', async () => {
    const { services, cli } = await world();
    const run = await cli(['compare', '--prompt', 'a heron', ...TARGETS, ...FETCHED_ONLY]);
    expect(run.code, describeRun(run)).toBe(0);
    // fal's schema is public: asked without a key; Replicate's with its own key, in its header.
    expect(schemaAsks(services.fal).map((entry) => entry.auth)).toEqual([null]);
    expect(schemaAsks(services.replicate).map((entry) => entry.auth?.value)).toEqual([
      `Bearer ${KEYS.replicate}`,
    ]);
    // BFL publishes none: never asked.
    expect(schemaAsks(services.bfl)).toEqual([]);
    for (const dialect of Object.keys(KEYS) as Dialect[]) {
      const others = Object.entries(KEYS).filter(([name]) => name !== dialect);
      for (const [, key] of others) expect(headersOf(services[dialect])).not.toContain(key);
    }
    // The fetched option is typed for the first target and sent to each that publishes it.
    expect(bodies(services.fal)).toEqual([expect.objectContaining({ acceleration: 'high' })]);
    expect(bodies(services.replicate)).toEqual([
      { input: expect.objectContaining({ acceleration: 'high' }) },
    ]);
    expect(bodies(services.bfl)[0]).not.toHaveProperty('acceleration');
    expect(run.stderr).toContain('has no option “acceleration”: it is not sent there.');
    // Kept: the next compare asks no service again.
    const again = await cli(['compare', '--prompt', 'a wren', ...TARGETS, ...FETCHED_ONLY]);
    expect(again.code, describeRun(again)).toBe(0);
    expect(schemaAsks(services.fal)).toHaveLength(1);
    expect(schemaAsks(services.replicate)).toHaveLength(1);
    for (const key of Object.values(KEYS)) expect(run.stdout + run.stderr).not.toContain(key);
  }, 120_000);

  it.each([
    ['a hostile schema', { type: 'body', body: `{"paths":${'['.repeat(60)}${']'.repeat(60)}}` }],
    ['a dropped connection', { type: 'reset' }],
  ] as const)(
    'falls back on %s: the shipped options stay, said in a sentence',
    async (_what, effect) => {
      const { services, cli } = await world();
      services.fal.addFault({ route: 'schema', effect });
      const steps = ['--param', 'num_inference_steps=12'];
      const run = await cli(['compare', '--prompt', 'a heron', ...TARGETS, ...steps]);
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.stderr).toMatch(
        /fal-ai\/flux\/dev .*(could not be fetched from|too large, too deep).*the options Pictor knows stay in use/s,
      );
      expect(run.stderr).not.toMatch(/\bat \S+:\d+|Error:/);
      expect(bodies(services.fal)).toEqual([expect.objectContaining({ num_inference_steps: 12 })]);
      // Only the fetched schema has it: refused for the first target, exit 2, nothing sent.
      const refused = await cli(['compare', '--prompt', 'a wren', ...TARGETS, ...FETCHED_ONLY]);
      expect(refused.code, describeRun(refused)).toBe(2);
      expect(refused.stderr).toContain('The model fal-ai/flux/dev has no option “acceleration”.');
      expect(bodies(services.fal)).toHaveLength(1);
    },
  );

  it('falls back with a sentence when the network to a target is dead', async () => {
    const { services, cli } = await world('replicate');
    const run = await cli(['compare', '--prompt', 'a heron', ...TARGETS, '--seed', '5']);
    expect(run.stderr).toMatch(
      /black-forest-labs\/flux-dev could not be fetched from .*: the options Pictor knows stay in use/,
    );
    expect(run.stderr).not.toMatch(/\bat \S+:\d+|Error:/);
    // The targets that can be reached are sent their seed.
    expect(bodies(services.fal)).toEqual([expect.objectContaining({ seed: 5 })]);
    expect(bodies(services.bfl)).toEqual([expect.objectContaining({ seed: 5 })]);
  });

  it('asks nothing when no option is set', async () => {
    const { services, cli } = await world();
    const plain = await cli(['compare', '--prompt', 'a heron', ...TARGETS]);
    expect(plain.code, describeRun(plain)).toBe(0);
    for (const service of Object.values(services)) expect(schemaAsks(service)).toEqual([]);
  });
});
