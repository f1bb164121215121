/**
 * The `workflows:` channels over the app's real wiring: a workflow file is read only where main's
 * own open dialog points (the page's input names no path, and one that tries is refused before
 * main sees it), its checked graph is held under a token the save must bring back, the save's name
 * and map are bounded by the contract and checked again by core/workflows (the book
 * `pictor comfy import` writes), and a kept workflow is listed and removed by name only.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestChannel, Result } from '../../../shared/ipc/contract';
import { startWiredApi, type WiredApi } from '../../support/wired-api';

const GRAPH = {
  '3': { class_type: 'KSampler', inputs: { seed: 5, steps: 20, positive: ['6', 0] } },
  '6': { class_type: 'CLIPTextEncode', inputs: { text: 'x'.repeat(500) } },
};

type Invoke = (channel: RequestChannel, input?: unknown) => Promise<Result<unknown>>;

const opened: WiredApi[] = [];
afterEach(async () => {
  for (const main of opened.splice(0)) await main.close();
});

async function wired() {
  const main = await startWiredApi();
  opened.push(main);
  const invoke: Invoke = (channel, input) =>
    main.api.invoke(channel, input as never) as Promise<Result<unknown>>;
  return { main, invoke };
}

async function picked(main: WiredApi, invoke: Invoke, text: string) {
  const path = join(main.dir, 'picked.json');
  await writeFile(path, text);
  main.env.PICTOR_E2E_OPEN_WORKFLOW = path;
  return invoke('workflows:pick');
}

describe('workflows: channels', () => {
  it('shows the picked file’s mappable inputs, bounded, and keeps it only with the token main gave', async () => {
    const { main, invoke } = await wired();
    const answer = await picked(main, invoke, JSON.stringify(GRAPH));
    if (!answer.ok) throw new Error(answer.error.message);
    const pick = (
      answer.value as { pick: { token: string; nodes: unknown[]; suggestedName: string } }
    ).pick;
    expect(pick.suggestedName).toBe('picked');
    expect(pick.nodes).toEqual([
      {
        id: '3',
        classType: 'KSampler',
        inputs: [
          { name: 'seed', kind: 'number', value: 5 },
          { name: 'steps', kind: 'number', value: 20 },
        ],
      },
      {
        id: '6',
        classType: 'CLIPTextEncode',
        inputs: [{ name: 'text', kind: 'text', value: 'x'.repeat(120) }],
      },
    ]);
    const map = { prompt: '6.text', seed: '3.seed' };
    // Another token (a page guessing one) holds nothing.
    const guessed = await invoke('workflows:save', {
      token: '00000000-0000-4000-8000-000000000000',
      name: 'mine',
      map,
    });
    expect(guessed).toMatchObject({ ok: false, error: { code: 'not_found' } });
    // A map naming an input of the wrong kind is refused with the check's sentence.
    const wrong = await invoke('workflows:save', {
      token: pick.token,
      name: 'mine',
      map: { prompt: '3.seed' },
    });
    expect(wrong).toMatchObject({
      ok: false,
      error: {
        message:
          'Pictor did not import this workflow: The prompt goes to 3.seed, which holds something else, not text. Nothing was saved.',
      },
    });
    expect(await invoke('workflows:save', { token: pick.token, name: 'mine', map })).toEqual({
      ok: true,
      value: { name: 'mine' },
    });
    expect((await main.runtime.core.workflows.lookup('mine'))?.map).toEqual(map);
    expect(await invoke('workflows:list')).toEqual({
      ok: true,
      value: { workflows: [{ name: 'mine', map }] },
    });
    // The token is spent.
    expect(await invoke('workflows:save', { token: pick.token, name: 'again', map })).toMatchObject(
      {
        ok: false,
      },
    );
    expect(await invoke('workflows:remove', { name: 'mine' })).toEqual({
      ok: true,
      value: { removed: true },
    });
    expect(await invoke('workflows:remove', { name: 'mine' })).toEqual({
      ok: true,
      value: { removed: false },
    });
  });

  it('refuses a path, a name that is no file name, a map with a role Pictor lacks, before main', async () => {
    const { main, invoke } = await wired();
    const answer = await picked(main, invoke, JSON.stringify(GRAPH));
    const { token } = (answer as { value: { pick: { token: string } } }).value.pick;
    const refused = [
      ['workflows:pick', { path: '/etc/passwd' }],
      ['workflows:save', { token, name: '../escape', map: { prompt: '6.text' } }],
      ['workflows:save', { token, name: 'x.', map: { prompt: '6.text' } }],
      ['workflows:save', { token, name: 'ok', map: { prompt: '6.text', lora: '3.seed' } }],
      ['workflows:save', { token, name: 'ok', map: { seed: '3.seed' } }],
      ['workflows:save', { token, name: 'ok', map: { prompt: '../6.text' } }],
      ['workflows:remove', { name: '../../settings' }],
    ] as const;
    for (const [channel, input] of refused) {
      expect(await invoke(channel, input), JSON.stringify(input)).toMatchObject({
        ok: false,
        error: { code: 'bad_input' },
      });
    }
    expect(await readdir(main.runtime.dataDir)).not.toContain('comfyui-workflows');
  });

  it('checks a name by the one rule: a device refused before main, a kept one listed and removed, a twin saved under the name kept', async () => {
    const { main, invoke } = await wired();
    const answer = await picked(main, invoke, JSON.stringify(GRAPH));
    const { token } = (answer as { value: { pick: { token: string } } }).value.pick;
    const map = { prompt: '6.text' };
    for (const name of ['CON', 'nul', 'aux.json', 'COM1', 'port\u200brait', 'portrait '])
      expect(await invoke('workflows:save', { token, name, map }), name).toMatchObject({
        ok: false,
        error: { code: 'bad_input' },
      });
    expect(await readdir(main.runtime.dataDir)).not.toContain('comfyui-workflows');
    // An older Pictor's workflows: one under a device's name, one that only differs in case.
    const folder = join(main.runtime.dataDir, 'comfyui-workflows');
    await mkdir(folder, { recursive: true });
    const kept = { graph: GRAPH, map: { prompt: '6.text', seed: '3.seed' } };
    for (const file of ['CON.json', 'Portrait.json'])
      await writeFile(join(folder, file), JSON.stringify({ version: 1, workflow: kept }));
    expect(await invoke('workflows:list')).toEqual({
      ok: true,
      value: {
        workflows: [
          { name: 'CON', map: kept.map },
          { name: 'Portrait', map: kept.map },
        ],
      },
    });
    expect(await invoke('workflows:save', { token, name: 'portrait', map })).toEqual({
      ok: true,
      value: { name: 'Portrait' },
    });
    expect((await readdir(folder)).sort()).toEqual(['CON.json', 'Portrait.json']);
    expect((await main.runtime.core.workflows.lookup('PORTRAIT'))?.map).toEqual(map);
    expect(await invoke('workflows:remove', { name: 'CON' })).toEqual({
      ok: true,
      value: { removed: true },
    });
    expect(await readdir(folder)).toEqual(['Portrait.json']);
  });

  it('says a file it cannot read, and a cancelled dialog reads nothing', async () => {
    const { main, invoke } = await wired();
    expect(await invoke('workflows:pick')).toEqual({ ok: true, value: { pick: null } });
    main.env.PICTOR_E2E_OPEN_WORKFLOW = join(main.dir, 'missing.json');
    expect(await invoke('workflows:pick')).toMatchObject({
      ok: false,
      error: {
        message:
          'The workflow file could not be read, or is larger than 524,288 bytes. Nothing was saved.',
      },
    });
  });
});
