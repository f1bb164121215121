/**
 * The model's own options on the command line, against the demo's dialects on loopback: `models`
 * lists them, `models show` types them; generate's `--param`, `--seed`, `--negative`, `--aspect`
 * and `--resolution` reach the submit body under the service's names (a wrong one is a sentence
 * and exit 2, nothing sent); `--dry-run` prints the body and its cURL line (`$SERVICE_API_KEY`,
 * never the key) and sends nothing;
 * `--like` repeats a task's request with its seed, `--vary` with a new one.
 */
import { describe, expect, it } from 'vitest';
import { expectExit, onlyTask } from './cli-harness';
import { KEYS, useProviderWorlds } from './providers-harness';
import { describeRun, runCliHere } from './run-cli';
import { execFileSync } from 'node:child_process';
import { removeFolder, tempFolder } from '../../support/temp-folders';
import { bareEnv } from '../../support/child-env';

const newWorld = useProviderWorlds();

/**
 * The words `line` is, as bash splits and expands it with `env` (nothing in it runs). A bidi
 * control or another character a terminal acts on in the body is JSON's `\uXXXX`, the same value
 * (shared/text/shell-command.ts), so this line needs no `printf`.
 */
function shellWords(line: string, env: Record<string, string>): string[] {
  const out = execFileSync('bash', ['-c', `printf '%s\\0' ${line}`], {
    encoding: 'utf8',
    env: bareEnv(env),
  });
  return out.split('\0').slice(0, -1);
}

/** The bodies the demo's submits carried, in order. */
async function bodies(world: Awaited<ReturnType<typeof newWorld>>): Promise<unknown[]> {
  return (await world.service.log()).submits.map((entry) => entry.body);
}

describe('models', () => {
  it('lists the most-asked models with their options, and shows one model’s options typed', async () => {
    const home = await tempFolder('models');
    const world = { run: (args: readonly string[]) => runCliHere(args, { home }) };
    const list = await world.run(['models', '--provider', 'fal']);
    expectExit(list, 0);
    expect(list.stdout).toMatch(
      /fal-ai\/imagen4\/preview .*options: aspect_ratio, resolution, seed, negative_prompt, num_images/,
    );
    expect(list.stdout).toContain('fal-ai/nano-banana ');
    const replicate = await world.run(['models', '--provider', 'replicate']);
    for (const model of [
      'google/nano-banana',
      'openai/gpt-image-1',
      'google/imagen-4',
      'black-forest-labs/flux-1.1-pro-ultra',
      'bytedance/seedream-4',
    ]) {
      expect(replicate.stdout).toContain(`${model} `);
    }
    const show = await world.run(['models', 'show', 'fal-ai/flux/dev']);
    expectExit(show, 0);
    expect(show.stdout).toContain('  seed: whole number from 0 to 2147483647  (--seed)\n');
    expect(show.stdout).toContain('  num_inference_steps: whole number from 1 to 50; default 28\n');
    expect(show.stdout).toContain('  guidance_scale: number from 1 to 20, step 0.5; default 3.5\n');
    expect(show.stdout).toContain('  output_format: one of jpeg, png; default jpeg\n');
    expect(show.stdout).toContain('  enable_safety_checker: true or false; default true\n');
    const unknown = await world.run(['models', 'show', 'no/such-model']);
    expectExit(unknown, 2);
    await removeFolder(home);
  });
});

describe('generate with the model’s options', () => {
  it('sends every kind under fal’s names, with the seed, and reports the seed back', async () => {
    const world = await newWorld('fal');
    const run = await world.run([
      'generate',
      ...world.named,
      '--model',
      'fal-ai/flux/dev',
      '--prompt',
      'a lighthouse',
      '--param',
      'num_inference_steps=12',
      '--param',
      'guidance_scale=4.5',
      '--param',
      'output_format=png',
      '--param',
      'enable_safety_checker=false',
      '--seed',
      '4242',
      '--json',
    ]);
    expectExit(run, 0);
    expect(onlyTask(run)).toMatchObject({ status: 'completed', seed: 4242 });
    expect((await bodies(world))[0]).toMatchObject({
      prompt: 'a lighthouse',
      num_inference_steps: 12,
      guidance_scale: 4.5,
      output_format: 'png',
      enable_safety_checker: false,
      seed: 4242,
    });
  });

  it('sends the shortcuts where the model has them', async () => {
    const world = await newWorld('replicate');
    const run = await world.run([
      'generate',
      ...world.named,
      '--model',
      'stability-ai/stable-diffusion-3.5-large',
      '--prompt',
      'a harbour',
      '--aspect',
      '16:9',
      '--negative',
      'blurry',
      '--seed',
      '7',
      '--json',
    ]);
    expectExit(run, 0);
    expect((await bodies(world))[0]).toEqual({
      input: { prompt: 'a harbour', aspect_ratio: '16:9', negative_prompt: 'blurry', seed: 7 },
    });
  });

  it.each([
    [
      ['--param', 'num_inference_steps=many'],
      'The option “num_inference_steps” takes a whole number from 1 to 50.',
    ],
    [
      ['--param', 'num_inference_steps=51'],
      'The option “num_inference_steps” takes a whole number from 1 to 50.',
    ],
    [['--param', 'output_format=gif'], 'The option “output_format” takes one of: jpeg, png.'],
    [
      ['--param', 'enable_safety_checker=yes'],
      'The option “enable_safety_checker” takes true or false.',
    ],
    [['--param', 'cfg=2'], 'The model fal-ai/flux/dev has no option “cfg”.'],
    [['--param', 'novalue'], '--param takes key=value'],
    [['--aspect', '16:9'], 'The model fal-ai/flux/dev takes no aspect ratio'],
    [['--negative', 'blurry'], 'The model fal-ai/flux/dev takes no negative prompt'],
    [['--seed', '-1'], '--seed takes a whole number'],
  ])('refuses %j with a sentence and exit 2, sending nothing', async (args, said) => {
    const world = await newWorld('fal');
    const run = await world.run([
      'generate',
      ...world.named,
      '--model',
      'fal-ai/flux/dev',
      '--prompt',
      'x',
      ...args,
    ]);
    expectExit(run, 2);
    expect(run.stderr, describeRun(run)).toContain(said);
    expect(await bodies(world)).toEqual([]);
  });

  it('--dry-run prints the body that would be sent and its cURL line, needs no key and sends nothing', async () => {
    const world = await newWorld('fal');
    const prompt = 'it’s a "fox" $(id) \u202e';
    const run = await world.run(
      [
        'generate',
        ...world.named,
        '--model',
        'fal-ai/imagen4/preview',
        '--prompt',
        prompt,
        '--aspect',
        '16:9',
        '--resolution',
        '2K',
        '--negative',
        'blurry',
        '--seed',
        '3',
        '--dry-run',
      ],
      { key: null },
    );
    expectExit(run, 0);
    const lines = run.stdout.split('\n');
    expect(lines.at(-1)).toBe('');
    const [head, ...rest] = lines.slice(0, -2);
    expect(head).toBe('POST /fal-ai/imagen4/preview');
    const body = {
      prompt,
      num_images: 1,
      aspect_ratio: '16:9',
      resolution: '2K',
      negative_prompt: 'blurry',
      seed: 3,
    };
    expect(JSON.parse(rest.join('\n'))).toEqual(body);
    // The cURL line, read back by a real shell with the key in its environment: the same body to
    // the same address, the key only where the shell put it.
    const curl = lines.at(-2) ?? '';
    expect(curl).toMatch(/^curl /);
    expect(curl).not.toMatch(/\u202e/);
    const words = shellWords(curl.slice('curl '.length), { SERVICE_API_KEY: 'from-the-shell' });
    expect(words.slice(0, 5)).toEqual([
      '-X',
      'POST',
      `${world.service.url}/fal-ai/imagen4/preview`,
      '-H',
      'Authorization: Key from-the-shell',
    ]);
    expect(JSON.parse(words.at(-1) ?? '')).toEqual(body);
    expect(await bodies(world)).toEqual([]);
    const keyed = await world.run(['generate', ...world.named, '--prompt', 'a fox', '--dry-run']);
    expect(keyed.stdout).not.toContain(KEYS.fal);
    expect(keyed.stdout).toContain('$SERVICE_API_KEY');
  });

  it('--like repeats a task’s request with its seed; --vary draws a new seed', async () => {
    const world = await newWorld('fal');
    const first = await world.run([
      'generate',
      ...world.named,
      '--model',
      'fal-ai/flux/dev',
      '--prompt',
      'a mill',
      '--param',
      'num_inference_steps=9',
      '--seed',
      '1234',
      '--json',
    ]);
    expectExit(first, 0);
    const { localId } = onlyTask(first);
    const again = await world.run(['generate', ...world.named, '--like', localId, '--json']);
    expectExit(again, 0);
    expect(onlyTask(again)).toMatchObject({ seed: 1234 });
    const varied = await world.run([
      'generate',
      ...world.named,
      '--like',
      localId,
      '--vary',
      '--json',
    ]);
    expectExit(varied, 0);
    const [, second, third] = await bodies(world);
    expect(second).toEqual({ prompt: 'a mill', num_images: 1, num_inference_steps: 9, seed: 1234 });
    expect(third).toMatchObject({ prompt: 'a mill', num_inference_steps: 9 });
    expect((third as { seed: number }).seed).not.toBe(1234);
    const mixed = await world.run([
      'generate',
      ...world.named,
      '--like',
      localId,
      '--param',
      'x=1',
    ]);
    expectExit(mixed, 2);
  });
});
