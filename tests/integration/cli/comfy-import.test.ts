/**
 * `pictor comfy import` keeps an exported ComfyUI workflow as a model of the comfyui provider,
 * its inputs mapped once; `generate --provider comfyui --model NAME` then runs it against the
 * demo's ComfyUI (loopback, in this process), the request's prompt and seed in the inputs the map
 * names. A hostile file and a map that does not fit are refused with a sentence, nothing kept.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_WORKFLOW } from '../../../shared/domain/comfy-prompt';
import { gradientPng } from '../../../electron/demo-service/plain-png';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { expectExit } from './cli-harness';
import { jsonLines, runCliHere } from './run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = 'sk-comfy-proxy-4d2a9c1e';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function world(): Promise<{ home: string; dataDir: string; service: DemoService }> {
  const home = await tempFolder('comfy-cli');
  cleanups.push(() => removeFolder(home));
  const service = await startDemoService({
    dialect: 'comfyui',
    accounts: [{ account: 'alice', key: KEY }],
    durationMs: 50,
  });
  cleanups.push(() => service.close());
  return { home, dataDir: join(home, 'data'), service };
}

const MAP = ['--prompt', '6.text', '--negative', '7.text', '--seed', '3.seed'];
/** A run that waits for its task polls every 100 ms, not every 3 s (the default). */
const POLL_FAST = ['--poll-interval', '0.1'];

describe('pictor comfy import', () => {
  it('keeps a mapped workflow that generate then runs with the prompt and seed in its inputs', async () => {
    const { home, dataDir, service } = await world();
    const file = join(home, 'portrait.json');
    await writeFile(file, JSON.stringify(DEFAULT_WORKFLOW.graph));
    const imported = await runCliHere(
      ['comfy', 'import', file, '--name', 'portrait', ...MAP, '--data-dir', dataDir],
      { home },
    );
    expectExit(imported, 0);
    expect(imported.stdout).toContain('Imported portrait (7 nodes): prompt → 6.text');

    const run = await runCliHere(
      [
        'generate',
        ...['--provider', 'comfyui', '--base-url', service.url, '--model', 'portrait'],
        ...['--prompt', 'a heron at dawn', '--seed', '77', '--size', '256x256'],
        ...['--data-dir', dataDir, '--json', ...POLL_FAST],
      ],
      { home, key: KEY },
    );
    expectExit(run, 0);
    expect(jsonLines(run)[0]).toMatchObject({ provider: 'comfyui', status: 'completed' });
    const sent = service.log.submits[0]!.body as {
      prompt: Record<string, { inputs: Record<string, unknown> }>;
    };
    expect(sent.prompt['6']!.inputs['text']).toBe('a heron at dawn');
    expect(sent.prompt['3']!.inputs['seed']).toBe(77);
    expect(`${run.stdout}${run.stderr}${imported.stdout}`).not.toContain(KEY);
  });

  it('edits through a workflow that maps an input image: pictor edit uploads it once and the LoadImage names it', async () => {
    const { home, dataDir, service } = await world();
    const graph = {
      ...DEFAULT_WORKFLOW.graph,
      '10': { class_type: 'LoadImage', inputs: { image: 'placeholder.png' } },
    };
    const file = join(home, 'restyle.json');
    await writeFile(file, JSON.stringify(graph));
    const imported = await runCliHere(
      [
        'comfy',
        'import',
        file,
        '--name',
        'restyle',
        ...MAP,
        '--image',
        '10.image',
        '--data-dir',
        dataDir,
      ],
      { home },
    );
    expectExit(imported, 0);
    const png = gradientPng(40, 32, [250, 200, 10], [10, 40, 220]);
    const source = join(home, 'source.png');
    await writeFile(source, png);
    const run = await runCliHere(
      [
        'edit',
        source,
        ...['--provider', 'comfyui', '--base-url', service.url, '--model', 'restyle'],
        ...['--prompt', 'the same, at night', '--data-dir', dataDir, '--json', ...POLL_FAST],
      ],
      { home, key: KEY },
    );
    expectExit(run, 0);
    expect(jsonLines(run)[0]).toMatchObject({ status: 'completed', operation: 'edit' });
    const uploads = service.log.requests.filter((entry) => entry.path === '/upload/image');
    expect(uploads).toHaveLength(1);
    const sent = service.log.submits[0]!.body as {
      prompt: Record<string, { inputs: Record<string, unknown> }>;
    };
    const name = String(sent.prompt['10']!.inputs['image']);
    const view = await fetch(`${service.url}/view?filename=${name}&subfolder=&type=input`);
    expect(Buffer.from(await view.arrayBuffer()).equals(png)).toBe(true);
    expect(`${run.stdout}${run.stderr}`).not.toContain(KEY);
  });

  it('runs on a local ComfyUI with no key at all: its requests carry no key header', async () => {
    const { home, dataDir, service } = await world();
    const run = await runCliHere(
      [
        'generate',
        ...['--provider', 'comfyui', '--base-url', service.url, '--prompt', 'a quiet harbour'],
        ...['--data-dir', dataDir, '--json', ...POLL_FAST],
      ],
      { home },
    );
    expectExit(run, 0);
    expect(jsonLines(run)[0]).toMatchObject({ provider: 'comfyui', status: 'completed' });
    expect(service.log.submits).toHaveLength(1);
    for (const request of service.log.requests)
      expect(request.headers['authorization'], request.path).toBeUndefined();
    // Another service still needs its key: no key, nothing sent.
    const other = await runCliHere(
      ['generate', '--provider', 'fal', '--base-url', service.url, '--prompt', 'x'],
      { home },
    );
    expectExit(other, 2);
    expect(other.stderr).toContain('SERVICE_API_KEY');
    expect(service.log.submits).toHaveLength(1);
  });

  it.each([
    ['the editor’s own format', JSON.stringify({ nodes: [], links: [] }), 'Export (API)'],
    [
      'a link to a missing node',
      JSON.stringify({ '1': { class_type: 'A', inputs: { x: ['9', 0] } } }),
      'lacks',
    ],
    ['not JSON', '{"6": ', 'not JSON'],
  ])('refuses %s with a sentence and keeps nothing', async (_what, text, said) => {
    const { home, dataDir } = await world();
    const file = join(home, 'bad.json');
    await writeFile(file, text);
    const run = await runCliHere(
      ['comfy', 'import', file, '--name', 'bad', '--prompt', '6.text', '--data-dir', dataDir],
      { home },
    );
    expectExit(run, 1);
    expect(run.stderr).toContain(said);
    await expect(readdir(join(dataDir, 'comfyui-workflows'))).rejects.toThrow();
  });

  it('refuses a map that names an input the workflow lacks, and a name that cannot be a file', async () => {
    const { home, dataDir } = await world();
    const file = join(home, 'flow.json');
    await writeFile(file, JSON.stringify(DEFAULT_WORKFLOW.graph));
    const wrong = await runCliHere(
      ['comfy', 'import', file, '--name', 'flow', '--prompt', '6.words', '--data-dir', dataDir],
      { home },
    );
    expectExit(wrong, 1);
    expect(wrong.stderr).toContain('6.words');
    const badName = await runCliHere(
      ['comfy', 'import', file, '--name', '../up', '--prompt', '6.text', '--data-dir', dataDir],
      { home },
    );
    expectExit(badName, 2);
  });

  it('generate names a model that was never imported: refused before anything is sent', async () => {
    const { home, dataDir, service } = await world();
    const run = await runCliHere(
      [
        'generate',
        ...['--provider', 'comfyui', '--base-url', service.url, '--model', 'nowhere'],
        ...['--prompt', 'a heron', '--data-dir', dataDir],
      ],
      { home, key: KEY },
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('nowhere is not a workflow imported into ComfyUI');
    expect(service.log.submits).toEqual([]);
  });
});
