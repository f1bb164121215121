/**
 * `track <id>` for a task made elsewhere, against the demo service speaking a provider's dialect:
 * fal keeps a request under the address of the model it was made with, so `track --provider fal`
 * needs `--model` (the model's app is `fal-ai/flux-pro`, not the default's `fal-ai/flux`: a guess
 * would ask another app, whose "no such request" would end a running task); without it, or with a
 * model fal cannot take, the CLI says so (exit 2) and asks nothing. Replicate finds a task by its
 * id alone.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit } from './cli-harness';
import {
  KEYS,
  expectKeyOnlyInDialectHeader,
  useProviderWorlds,
  type ProviderWorld,
} from './providers-harness';
import { jsonLines } from './run-cli';
import { REPO_ROOT } from '../../support/source-files';

const newWorld = useProviderWorlds();
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MODEL = 'fal-ai/flux-pro/v1.1';

/** A task made outside Pictor, straight through the dialect's submit; its id. */
async function madeElsewhere(world: ProviderWorld): Promise<string> {
  const fal = world.service.dialect === 'fal';
  const path = fal ? `/${MODEL}` : '/v1/models/black-forest-labs/flux-schnell/predictions';
  const response = await fetch(`${world.service.url}${path}`, {
    method: 'POST',
    headers: {
      authorization: `${fal ? 'Key' : 'Bearer'} ${KEYS[world.service.dialect]}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(fal ? { prompt: 'made elsewhere' } : { input: { prompt: 'elsewhere' } }),
  });
  const body = (await response.json()) as { request_id?: string; id?: string };
  expect(response.status, JSON.stringify(body)).toBeLessThan(300);
  return (fal ? body.request_id : body.id)!;
}

describe('track --provider fal', () => {
  it('follows a request made elsewhere under the model --model names, and saves its image', async () => {
    const world = await newWorld('fal');
    const id = await madeElsewhere(world);
    const run = await world.run(['track', id, ...world.named, '--model', MODEL, '--json']);
    expectExit(run, 0);
    const [task] = jsonLines(run);
    expect(task).toMatchObject({ taskId: id, provider: 'fal', status: 'completed' });
    expect((await readFile(task!.images[0]!.path!)).subarray(0, 8)).toEqual(PNG_SIGNATURE);

    const log = await world.service.log();
    expect(log.submits).toHaveLength(1);
    expect(log.polls.length).toBeGreaterThan(0);
    for (const poll of log.polls) expect(poll.path).toMatch(`/fal-ai/flux-pro/requests/${id}`);
    expectKeyOnlyInDialectHeader('fal', log);
  });

  it('without --model, or with one fal cannot take, says so and asks nothing', async () => {
    const world = await newWorld('fal');
    const id = await madeElsewhere(world);
    const bare = await world.run(['track', id, ...world.named]);
    expectExit(bare, 2);
    expect(bare.stderr).toMatch(
      /track --provider fal needs --model M, the model the task was made/,
    );
    expect(bare.stderr).toMatch(/fal\.ai finds a request only under the address of the model/);
    for (const model of ['fal-ai', '../fal-ai/flux', 'fal-ai/flux?x=1', 'sk-pasted/../key']) {
      const wrong = await world.run(['track', id, ...world.named, '--model', model]);
      expectExit(wrong, 2);
      expect(wrong.stderr).toMatch(/--model is not a model id fal\.ai takes/);
      // Not repeated: a stray value may be the key pasted in the wrong place.
      expect(wrong.stderr).not.toMatch(/sk-pasted|\.\.\/|\?x=1/);
    }
    expect((await world.service.log()).polls).toEqual([]);
    const list = await world.run(['list', '--json']);
    expect(list.stdout).toBe('');
  });

  it('is in the help, and the README’s CLI section', async () => {
    const world = await newWorld('fal');
    const help = await world.run(['help', 'track']);
    expectExit(help, 0);
    expect(help.stdout).toMatch(
      /track <task-id> \[--provider ID\] \[--base-url URL\] \[--model M\]/,
    );
    const readme = await readFile(join(REPO_ROOT, 'README.md'), 'utf8');
    expect(readme).toMatch(/track <task-id> --provider fal --model /);
  });
});

describe('track --provider replicate', () => {
  it('finds a task by its id alone', async () => {
    const world = await newWorld('replicate');
    const id = await madeElsewhere(world);
    const run = await world.run(['track', id, ...world.named, '--json']);
    expectExit(run, 0);
    expect(jsonLines(run)[0]).toMatchObject({ taskId: id, status: 'completed' });
    expectKeyOnlyInDialectHeader('replicate', await world.service.log());
  });
});
