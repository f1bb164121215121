/**
 * A compromised page names the ComfyUI graph a task runs. A graph runs on the user's engine only
 * as the user imported it (a file main's own dialog picked, or `pictor comfy import`) or as a
 * stored task ran it (a resend main reads from the record); the page names a model, never a
 * graph. The request schema the page's channels took carried a `workflow`, and the engine kept a
 * request's own: any graph the page wrote (a custom node that runs code, a save anywhere its
 * nodes allow) went to the user's ComfyUI as the built-in model or under any name, and into the
 * command line "Copy as command" gave the user to paste. Through the real app behind the real
 * bridge, a ComfyUI of its own on loopback recording every prompt: the page's graph never reaches
 * it; the model's own graph does; a model with no imported workflow is refused before anything
 * is sent; and no channel of the contract takes a request's workflow from the page.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WORKFLOW } from '../../../shared/domain/comfy-prompt';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { requests, type RequestChannel, type RequestInput } from '../../../shared/ipc/contract';
import { sendJson, startServer, type TestServer } from '../../support/http-servers';
import { startRecordedApp, type RecordedApp } from '../key-and-bodies/recorded-app';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** The page's graph: a node no imported workflow has, holding what it would run. */
const EVIL_CLASS = 'PageWroteThisNode';
const PAGE_WORKFLOW = {
  graph: {
    '1': { class_type: EVIL_CLASS, inputs: { code: 'import os; os.system("id")', text: '' } },
    '2': {
      class_type: 'SaveImage',
      inputs: { filename_prefix: '../../../.config/x', images: ['1', 0] },
    },
  },
  map: { prompt: '1.text' },
};

/** The save prefix of the workflow the user imported: how its graph is told apart. */
const IMPORTED_MARK = 'ImportedByTheUser';

let dir = '';
let comfy: TestServer;
let app: RecordedApp;
/** The graphs ComfyUI was asked to run, in order. */
const prompts: unknown[] = [];
let promptSeen: () => void = () => undefined;

beforeAll(async () => {
  dir = await tempFolder('page-workflow');
  comfy = await startServer((req, res, body) => {
    const path = req.url ?? '';
    if (req.method === 'POST' && path === '/prompt') {
      prompts.push((JSON.parse(body) as { prompt: unknown }).prompt);
      promptSeen();
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

/** What a compromised page sends: a request with a graph its types do not offer. */
type PageRequest = RequestInput<'tasks:submit'>['request'];
const withGraph = (model: string): PageRequest =>
  ({ prompt: 'a red door', model, workflow: PAGE_WORKFLOW }) as PageRequest;

const target = () => ({ provider: 'comfyui' as const, endpoint: comfy.origin });

/** The text main last put on the clipboard (the OS stand-in's record). */
function lastCopied(): string {
  const copies = app.osCalls.filter((call) => call.action === 'copyText');
  return String(copies.at(-1)?.arg ?? '');
}

/** The class types of a graph ComfyUI was sent. */
function classes(graph: unknown): string[] {
  return Object.values(graph as Record<string, { class_type: string }>).map((n) => n.class_type);
}

describe('a ComfyUI graph the page writes', () => {
  it('is not what the built-in model runs: its own graph is sent', async () => {
    const seen = new Promise<void>((resolve) => (promptSeen = resolve));
    const submitted = await app.invoke('tasks:submit', {
      request: withGraph('text-to-image'),
      target: target(),
      count: 1,
    });
    expect(submitted.ok).toBe(true);
    await seen;
    expect(classes(prompts[0])).toEqual(classes(DEFAULT_WORKFLOW.graph));
    expect(JSON.stringify(prompts[0])).not.toContain(EVIL_CLASS);
  });

  it('runs under no model the user did not import: refused, nothing sent', async () => {
    const before = prompts.length;
    const submitted = await app.invoke('tasks:submit', {
      request: withGraph('page-made'),
      target: target(),
      count: 1,
    });
    expect(submitted.ok).toBe(false);
    expect(prompts.length).toBe(before);
  });

  it('is not in the command line "Copy as command" gives', async () => {
    const copied = await app.invoke('tasks:copyCommand', {
      request: withGraph('text-to-image'),
      target: target(),
    });
    expect(copied.ok).toBe(true);
    expect(lastCopied()).toContain('generate');
    expect(lastCopied()).not.toContain(EVIL_CLASS);
  });

  it('is not what an imported model runs, nor in its command: the import is', async () => {
    const graph = structuredClone(DEFAULT_WORKFLOW.graph);
    graph['9']!.inputs['filename_prefix'] = IMPORTED_MARK;
    await app.runtime.core.workflows.save('portrait', { ...DEFAULT_WORKFLOW, graph });
    const request = withGraph('portrait');
    const seen = new Promise<void>((resolve) => (promptSeen = resolve));
    const before = prompts.length;
    expect((await app.invoke('tasks:submit', { request, target: target(), count: 1 })).ok).toBe(
      true,
    );
    await seen;
    expect(JSON.stringify(prompts[before])).toContain(IMPORTED_MARK);
    expect(JSON.stringify(prompts[before])).not.toContain(EVIL_CLASS);
    expect((await app.invoke('tasks:copyCommand', { request, target: target() })).ok).toBe(true);
    expect(lastCopied()).toContain(IMPORTED_MARK);
    expect(lastCopied()).not.toContain(EVIL_CLASS);
  });

  it("is not sent back to the page: a task's item carries no graph, its history record does", async () => {
    const listed = await app.invoke('tasks:list', {});
    expect(listed.ok).toBe(true);
    const items = listed.ok ? (listed.value as { items: { record: TaskRecord }[] }).items : [];
    expect(items.length).toBeGreaterThan(0);
    for (const { record } of items) expect(record.request.workflow).toBeUndefined();
    // The imported model's task keeps its graph where main reads it to send again.
    const kept = items.filter(
      ({ record }) => app.runtime.core.history.get(record.localId)?.request.workflow !== undefined,
    );
    expect(kept.length).toBeGreaterThan(0);
  });

  it('is taken by no channel of the contract', () => {
    // Every channel whose input holds a request: what reaches its handler has no workflow.
    const found: string[] = [];
    for (const channel of Object.keys(requests) as RequestChannel[]) {
      const input = requests[channel].input;
      // An object's shape, or each shape of a union of objects (tasks:copyCommand's).
      const options = (input as { options?: unknown[] }).options ?? [input];
      for (const option of options) {
        const shape = (option as { shape?: Record<string, unknown> }).shape;
        const request = shape?.['request'] as { shape?: Record<string, unknown> } | undefined;
        if (request?.shape === undefined) continue;
        found.push(channel);
        expect(Object.keys(request.shape), channel).not.toContain('workflow');
      }
    }
    expect(found).toEqual(
      expect.arrayContaining([
        'tasks:submit',
        'tasks:copyCommand',
        'costs:preview',
        'templates:run',
      ]),
    );
  });
});
