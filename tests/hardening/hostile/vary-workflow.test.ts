/**
 * "Vary" of a ComfyUI task ran the workflow imported under its model's name NOW, not the graph the
 * task ran: the page sent the task's request (which reaches it without its graph) through
 * `tasks:submit`, and the engine attached the current import. A user who re-imported a model
 * (another sampler, another save folder) got a variation of a graph the task never ran. Now Vary
 * names the task (`tasks:resend` with `newSeed`) and main sends the request it kept, graph and
 * all, with a seed it draws; a task that kept no graph (tracked by id, rebuilt from a gallery
 * folder, kept by an older Pictor) is refused, saying so, and nothing is sent, for Vary and Rerun
 * alike. Through the real app behind the real bridge, a ComfyUI of its own on loopback recording
 * every prompt.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WORKFLOW } from '../../../shared/domain/comfy-prompt';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { sendJson, startServer, type TestServer } from '../../support/http-servers';
import { makeTask } from '../../support/task-records';
import { startRecordedApp, type RecordedApp } from '../key-and-bodies/recorded-app';
import { UNTIL } from '../../support/waits';
import { removeFolder, tempFolder } from '../../support/temp-folders';

type Graph = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

let dir = '';
let comfy: TestServer;
let app: RecordedApp;
/** The graphs ComfyUI was asked to run, in order. */
const prompts: Graph[] = [];

beforeAll(async () => {
  dir = await tempFolder('vary-workflow');
  comfy = await startServer((req, res, body) => {
    const path = req.url ?? '';
    if (req.method === 'POST' && path === '/prompt') {
      prompts.push((JSON.parse(body) as { prompt: Graph }).prompt);
      return sendJson(res, 200, { prompt_id: `prompt-${prompts.length}`, number: 1 });
    }
    if (path.startsWith('/history/')) return sendJson(res, 200, {});
    if (path === '/queue') return sendJson(res, 200, { queue_running: [], queue_pending: [] });
    return sendJson(res, 404, {});
  });
  app = await startRecordedApp({
    userDataDir: join(dir, 'data'),
    galleryDir: join(dir, 'gallery'),
    fetchCalls: [],
    ipc: [],
  });
  const set = await app.invoke('settings:update', { serviceBaseUrls: { comfyui: comfy.origin } });
  expect(set.ok).toBe(true);
});

afterAll(async () => {
  await app?.close();
  await comfy?.close();
  await removeFolder(dir);
});

const target = () => ({ provider: 'comfyui' as const, endpoint: comfy.origin });

/** Imports the default graph as `name`, its save node's prefix set to `mark` to tell it apart. */
async function importAs(name: string, mark: string): Promise<void> {
  const graph = structuredClone(DEFAULT_WORKFLOW.graph);
  graph['9']!.inputs['filename_prefix'] = mark;
  await app.runtime.core.workflows.save(name, { ...DEFAULT_WORKFLOW, graph });
}

/** The save prefix and the sampler's seed of a graph ComfyUI was sent. */
function ran(graph: Graph | undefined) {
  return { mark: graph?.['9']?.inputs['filename_prefix'], seed: graph?.['3']?.inputs['seed'] };
}

/** Sends `localId` again as the window's Vary (`newSeed`) or Rerun does; the new tasks' ids. */
async function sendAgain(localId: string, newSeed: boolean) {
  const input = { localIds: [localId], as: 'each' as const, ...(newSeed ? { newSeed } : {}) };
  const sent = await app.invoke('tasks:resend', input);
  const value = sent.ok ? (sent.value as { items: { record: TaskRecord }[] }) : null;
  return { sent, ids: value?.items.map((item) => item.record.localId) ?? [] };
}

/** Waits until ComfyUI has `count` prompts. */
async function promptsReach(count: number): Promise<void> {
  await expect.poll(() => prompts.length, UNTIL).toBe(count);
}

describe('Vary of a ComfyUI task', () => {
  it('runs the graph the task ran with a new seed, though the model was imported again', async () => {
    await importAs('portrait', 'AsTheTaskRan');
    const submitted = await app.invoke('tasks:submit', {
      request: { prompt: 'a red door', model: 'portrait' },
      target: target(),
      count: 1,
    });
    expect(submitted.ok).toBe(true);
    const [first] = submitted.ok ? (submitted.value as { record: TaskRecord }[]) : [];
    await promptsReach(1);
    expect(ran(prompts[0]).mark).toBe('AsTheTaskRan');
    // The user imports another graph under the same name.
    await importAs('portrait', 'ImportedSince');

    const vary = await sendAgain(first!.record.localId, true);
    expect(vary.sent.ok).toBe(true);
    await promptsReach(2);
    expect(ran(prompts[1]).mark).toBe('AsTheTaskRan');
    const varied = app.runtime.core.history.get(vary.ids[0]!);
    expect(varied?.request.seed).toEqual(expect.any(Number));
    expect(ran(prompts[1]).seed).toBe(varied?.request.seed);
    expect(ran(prompts[1]).seed).not.toBe(ran(prompts[0]).seed);

    // Rerun too (the task asked for no seed: Pictor draws one each time, as for the first).
    const rerun = await sendAgain(first!.record.localId, false);
    expect(rerun.sent.ok).toBe(true);
    await promptsReach(3);
    expect(ran(prompts[2]).mark).toBe('AsTheTaskRan');
    expect(JSON.stringify(prompts)).not.toContain('ImportedSince');
  });

  it('is refused, nothing sent, for a task that kept no graph; the built-in model needs none', async () => {
    await importAs('landscape', 'ImportedNow');
    const lost = makeTask({
      ...target(),
      status: 'completed',
      request: { prompt: 'a hill', model: 'landscape', seed: 5 },
    });
    const builtIn = makeTask({
      ...target(),
      status: 'completed',
      request: { prompt: 'a hill', model: 'text-to-image', seed: 5 },
    });
    app.runtime.core.history.putMany([lost, builtIn]);
    const before = prompts.length;
    for (const newSeed of [true, false]) {
      const { sent } = await sendAgain(lost.localId, newSeed);
      expect(sent).toMatchObject({
        ok: false,
        error: {
          code: 'bad_input',
          sentence: { key: 'error.providerInputs.workflowNotKept', params: { model: 'landscape' } },
        },
      });
    }
    expect(prompts.length).toBe(before);
    expect((await sendAgain(builtIn.localId, true)).sent.ok).toBe(true);
    await promptsReach(before + 1);
    expect(ran(prompts[before]).mark).toBe(DEFAULT_WORKFLOW.graph['9']!.inputs['filename_prefix']);
  });
});
