/**
 * What ComfyUI does that the other services do not, end to end against the demo's comfyui dialect
 * through the real core: an imported workflow, mapped, runs with the request's values in the
 * inputs its map names; a failed node is said by its type, id and exception; a waiting prompt's
 * place comes from the queue; a running prompt is stopped by an interrupt; an input image is
 * uploaded to the input folder a LoadImage node reads.
 */
import sharp from 'sharp';
import { describe, expect, it, onTestFinished } from 'vitest';
import { mappedWorkflow, readWorkflowText } from '../../../shared/domain/comfy-prompt';
import type { ComfyWorkflow, WorkflowMap } from '../../../shared/domain/comfy-workflow';
import { createPinnedFetch } from '../../../electron/core/download/pinned-fetch';
import { InputStore } from '../../../electron/core/inputs/input-store';
import { UPLOADERS } from '../../../electron/core/inputs/uploaders';
import { ServiceClient } from '../../../electron/core/service/service-client';
import { gradientPng } from '../../../electron/demo-service/plain-png';
import { KEY, providerRig } from './provider-harness';
import { untilAccepted } from './provider-scenarios';
import { EXPORTED_WORKFLOW } from '../../support/comfy-export';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const MAP: WorkflowMap = {
  prompt: '11.text',
  negative: '12.text',
  seed: '14.seed',
  steps: '14.steps',
  width: '13.width',
  height: '13.height',
};

function imported(text: string, map: WorkflowMap): ComfyWorkflow {
  const read = readWorkflowText(text);
  if (!read.ok) throw new Error(read.problem);
  const mapped = mappedWorkflow(read.graph, map);
  if (!mapped.ok) throw new Error(mapped.problem);
  return mapped.workflow;
}

describe('ComfyUI: workflows against the demo', () => {
  it('runs an imported workflow with the request’s values in its mapped inputs, once, and saves its PNG', async () => {
    const rig = await providerRig('comfyui');
    const workflow = imported(JSON.stringify(EXPORTED_WORKFLOW), MAP);
    rig.core.engine.start();
    const [record] = await rig.core.engine.submit(
      {
        prompt: 'a red fox in snow',
        model: 'my-sdxl',
        size: '320x256',
        seed: 42,
        params: { negative_prompt: 'blurry', steps: 12 },
        workflow,
      },
      rig.target,
    );
    const [done] = await rig.settle([record!.localId]);
    expect(done).toMatchObject({ status: 'completed', images: [{ state: 'saved' }] });
    const file = rig.core.gallery.resolve(done!.images[0]!.file!);
    expect(await sharp(file).metadata()).toMatchObject({ format: 'png', width: 320, height: 256 });
    const [submit] = rig.service.log.submits;
    const body = submit!.body as { prompt: typeof EXPORTED_WORKFLOW; client_id: string };
    expect(body.client_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.prompt['11'].inputs.text).toBe('a red fox in snow');
    expect(body.prompt['12'].inputs.text).toBe('blurry');
    expect(body.prompt['14'].inputs).toMatchObject({ seed: 42, steps: 12, cfg: 7 });
    expect(body.prompt['13'].inputs).toMatchObject({ width: 320, height: 256, batch_size: 1 });
    // The record keeps the workflow it ran, and the prompt id as its task id.
    expect(rig.stored(record!.localId).request.workflow).toEqual(workflow);
    expect(done!.taskId).toBe(rig.service.tasks()[0]!.id);
    expect(rig.service.log.submits).toHaveLength(1);
  });

  it('keeps as the task’s seed the one the graph that ran gave its sampler, read from /history', async () => {
    const rig = await providerRig('comfyui');
    const workflow = imported(JSON.stringify(EXPORTED_WORKFLOW), MAP);
    rig.core.engine.start();
    // No seed asked for: the one sent is drawn at submit, and only the history says it back.
    const [record] = await rig.core.engine.submit(
      { prompt: 'a red fox', model: 'my-sdxl', size: '256x256', workflow },
      rig.target,
    );
    const [done] = await rig.settle([record!.localId]);
    const body = rig.service.log.submits[0]!.body as { prompt: typeof EXPORTED_WORKFLOW };
    expect(done).toMatchObject({ status: 'completed', seed: body.prompt['14'].inputs.seed });
  });

  it('runs an edit through the normal route: the input uploaded once before the submit, its name in the mapped LoadImage, and a restart neither uploads nor submits again', async () => {
    // The task stays processing on the service until the test completes it.
    const rig = await providerRig('comfyui', { durationMs: 3_600_000 });
    const graph = {
      ...EXPORTED_WORKFLOW,
      '20': { class_type: 'LoadImage', inputs: { image: 'placeholder.png' } },
    };
    const workflow = imported(JSON.stringify(graph), { ...MAP, image: '20.image' });
    const png = gradientPng(48, 40, [10, 200, 90], [240, 20, 60]);
    const source = await rig.core.inputs.put(png);
    rig.core.engine.start();
    const [record] = await rig.core.engine.submit(
      {
        prompt: 'the same, in winter',
        model: 'my-edit',
        workflow,
        inputs: { operation: 'edit', source, route: 'auto' },
      },
      rig.target,
    );
    const localId = record!.localId;
    const { taskId } = await untilAccepted(rig, localId);
    const uploads = () =>
      rig.service.log.requests.filter((entry) => entry.path === '/upload/image');
    expect(uploads()).toHaveLength(1);
    // A proxied ComfyUI's key goes with the upload too, in its own header.
    expect(uploads()[0]!.headers['authorization']).toBe(`Bearer ${KEY}`);
    const body = rig.service.log.submits[0]!.body as {
      prompt: Record<string, { inputs: Record<string, unknown> }>;
    };
    const name = String(body.prompt['20']!.inputs['image']);
    expect(name).toBe(`${source.sha256}.png`);
    // The bytes the server holds under that name are the input's.
    const view = await fetch(`${rig.service.url}/view?filename=${name}&subfolder=&type=input`);
    expect(Buffer.from(await view.arrayBuffer()).equals(png)).toBe(true);

    await rig.restart();
    expect(rig.stored(localId)).toMatchObject({ status: 'processing', taskId });
    rig.service.completeTask(taskId!);
    rig.core.engine.start();
    const [done] = await rig.settle([localId]);
    expect(done).toMatchObject({ status: 'completed', taskId, images: [{ state: 'saved' }] });
    expect(uploads()).toHaveLength(1);
    expect(rig.service.log.submits).toHaveLength(1);
  });

  it('says a failed node by its type, its id and its exception', async () => {
    const rig = await providerRig('comfyui');
    rig.core.engine.start();
    const [record] = await rig.core.engine.submit(
      { prompt: 'please fail this one', size: '256x256' },
      rig.target,
    );
    const [done] = await rig.settle([record!.localId]);
    expect(done).toMatchObject({ status: 'failed', error: { kind: 'task_failed' } });
    expect(done!.error!.message).toBe(
      'KSampler (node 3): The model stopped before finishing the image. (RuntimeError)',
    );
  });

  it('shows a waiting prompt’s place from the queue, and none once it runs', async () => {
    // Each prompt waits the first third of its time (10 s of clock time).
    const rig = await providerRig('comfyui', { durationMs: 30_000 });
    rig.core.engine.start();
    const ids: string[] = [];
    for (const prompt of ['first in line', 'second in line']) {
      const [record] = await rig.core.engine.submit({ prompt, size: '256x256' }, rig.target);
      await untilAccepted(rig, record!.localId);
      ids.push(record!.localId);
      await rig.pass(3_500);
    }
    const [first, second] = ids as [string, string];
    expect(rig.core.engine.live(first).queuePosition).toBe(0);
    expect(rig.core.engine.live(second).queuePosition).toBe(1);
    await rig.pass(8_000);
    expect(rig.core.engine.live(first)).not.toHaveProperty('queuePosition');
    const queueReads = rig.service.log.requests.filter((entry) => entry.path === '/queue');
    expect(queueReads.length).toBeGreaterThan(0);
    expect(queueReads.every((entry) => entry.method === 'GET')).toBe(true);
  });

  it('stops a running prompt by interrupting that prompt', async () => {
    const rig = await providerRig('comfyui', { durationMs: 30_000 });
    rig.core.engine.start();
    const [record] = await rig.core.engine.submit(
      { prompt: 'stop me', size: '256x256' },
      rig.target,
    );
    const { localId } = record!;
    await untilAccepted(rig, localId);
    // Past the queue: the prompt runs.
    await rig.pass(12_000);
    await rig.core.engine.cancelOnService(localId);
    const [done] = await rig.settle([localId]);
    expect(done).toMatchObject({ status: 'failed', error: { kind: 'canceled' }, images: [] });
    const interrupts = rig.service.log.requests.filter((entry) => entry.path === '/interrupt');
    expect(interrupts.map((entry) => entry.status)).toEqual([200]);
    expect(rig.service.log.submits).toHaveLength(1);
  });

  it('uploads an input image where a LoadImage node finds it, and a graph naming another file is refused', async () => {
    const rig = await providerRig('comfyui');
    const png = gradientPng(64, 48, [200, 30, 30], [30, 30, 200]);
    const folder = await tempFolder('comfy-upload');
    onTestFinished(() => removeFolder(folder));
    const store = new InputStore({ root: folder });
    const upload = UPLOADERS.comfyui!;
    const name = await upload(
      {
        fetch,
        signedFetch: createPinnedFetch(),
        resolve: async (host) => [{ address: host, family: 4 }],
        baseUrl: rig.service.url,
        key: KEY,
        authHeaders: { Authorization: `Bearer ${KEY}` },
        keyOrigins: [],
        service: 'ComfyUI',
        signal: new AbortController().signal,
      },
      {
        image: await store.put(png),
        source: store,
        endpoint: `${rig.service.url}/upload/image`,
        model: 'img2img',
      },
    );
    const view = await fetch(`${rig.service.url}/view?filename=${name}&subfolder=&type=input`);
    expect(Buffer.from(await view.arrayBuffer()).equals(png)).toBe(true);

    const withImage = (file: string): ComfyWorkflow =>
      imported(
        JSON.stringify({
          ...EXPORTED_WORKFLOW,
          '20': { class_type: 'LoadImage', inputs: { image: file } },
          '21': { class_type: 'VAEEncode', inputs: { pixels: ['20', 0], vae: ['10', 2] } },
        }),
        MAP,
      );
    const client = new ServiceClient({ fetch: (url, init) => fetch(url, init) });
    const credentials = {
      baseUrl: rig.service.url,
      key: KEY,
      keyFingerprint: 'f',
      provider: 'comfyui' as const,
    };
    const sent = await client.submit(credentials, { prompt: 'a fox', workflow: withImage(name) });
    expect(sent.id).toMatch(/^[0-9a-f-]{36}$/);
    const refused = await client
      .submit(credentials, { prompt: 'a fox', workflow: withImage('nobody.png') })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ httpStatus: 400 });
  });
});
