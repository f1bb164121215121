/**
 * ComfyUI's workflows in the window: Settings imports a workflow file main's own dialog picks (the
 * page never names a path), shows its inputs to map to the request's roles, names it and keeps it
 * as a model of ComfyUI through core/workflows (the book `pictor comfy import` writes); the compose
 * form then offers it and runs it on a ComfyUI dialect on loopback, once, saving its image, and
 * compare offers it on a ComfyUI row. A file that is no workflow is refused with the check's own
 * sentence; a kept one can be removed. A name is checked by the one rule of a workflow's name (a
 * device's refused, saying why; one differing only in case is the workflow kept under it). "Connect
 * a service" connects ComfyUI by its address alone.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WORKFLOW, readWorkflowText } from '../../../../shared/domain/comfy-prompt';
import type { DemoService } from '../../../../electron/demo-service/types';
import { useAppStore } from '../../../../renderer/store/app-store';
import { connectService, startDialect } from '../dialect-services';
import { startWiredApp, type WiredApp } from '../render-wired-app';
import { EXPORTED_WORKFLOW } from '../../../support/comfy-export';

/** Settings over the real wiring, ComfyUI at a dialect on loopback (no key: it needs none). */
async function openComfySettings(): Promise<WiredApp & { service: DemoService }> {
  let service: DemoService | undefined;
  const app = await startWiredApp({
    prepare: async (main) => void (service = await connectService(main, 'comfyui', { key: null })),
  });
  act(() => useAppStore.getState().setView('settings'));
  await screen.findByRole('heading', { name: 'Settings', level: 1 });
  return { ...app, service: service! };
}

/** The Workflows part of Settings' ComfyUI entry. */
const workflowsPanel = () =>
  within(screen.getByRole('region', { name: 'ComfyUI' })).getByRole('region', {
    name: 'Workflows',
  });

/** Writes `content` as the file main's open dialog answers with next. */
async function pickedFile(app: WiredApp, name: string, content: string): Promise<string> {
  const path = join(app.main.dir, name);
  await writeFile(path, content);
  app.main.env.PICTOR_E2E_OPEN_WORKFLOW = path;
  return path;
}

describe('ComfyUI workflows in Settings', () => {
  it('imports a workflow, maps it once, keeps it as a model, and the compose form runs it on ComfyUI', async () => {
    const app = await openComfySettings();
    const { user, main, service } = app;
    await pickedFile(app, 'my-sdxl.json', JSON.stringify(EXPORTED_WORKFLOW));
    const panel = workflowsPanel();
    await user.click(within(panel).getByRole('button', { name: 'Import a workflow…' }));
    // The file's name is the model's, and the inputs a role's name suggests are chosen.
    const name = await within(panel).findByLabelText('Model name');
    expect(name).toHaveProperty('value', 'my-sdxl');
    expect(within(panel).getByLabelText('Prompt')).toHaveProperty('value', '11.text');
    expect(within(panel).getByLabelText('Seed')).toHaveProperty('value', '14.seed');
    expect(within(panel).getByLabelText('Width')).toHaveProperty('value', '13.width');
    // Only text inputs are offered for a text role, each with its node's title and its value.
    const negative = within(panel).getByLabelText('Negative prompt');
    const choices = within(negative).getAllByRole('option');
    expect(choices.map((option) => option.textContent)).toEqual([
      'Not used',
      '10.ckpt_name · CheckpointLoaderSimple · sdxl.safetensors',
      '11.text · Positive · a placeholder',
      '12.text · CLIPTextEncode · ',
      '14.sampler_name · KSampler · euler',
      '14.scheduler · KSampler · normal',
      '16.filename_prefix · SaveImage · mine',
    ]);
    await user.selectOptions(negative, '12.text');
    await user.selectOptions(within(panel).getByLabelText('Steps'), '14.steps');
    await user.click(within(panel).getByRole('button', { name: 'Save workflow' }));
    await within(panel).findByText(/^Saved my-sdxl\./);
    // Kept by the core's book, as `pictor comfy import` keeps one.
    const kept = await main.runtime.core.workflows.lookup('my-sdxl');
    expect(kept?.map).toEqual({
      prompt: '11.text',
      negative: '12.text',
      seed: '14.seed',
      width: '13.width',
      height: '13.height',
      steps: '14.steps',
    });
    within(panel).getByRole('button', { name: 'Remove my-sdxl' });
    // The page sent no path: the pick took nothing, the save the token main gave.
    expect(main.callsTo('workflows:pick')).toEqual([undefined]);
    expect(Object.keys(main.callsTo('workflows:save')[0] ?? {}).sort()).toEqual([
      'map',
      'name',
      'token',
    ]);

    act(() => useAppStore.getState().setView('tasks'));
    const form = await screen.findByRole('form', { name: 'New task' });
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Service' }), 'comfyui');
    const model = within(form).getByRole('combobox', { name: 'Model' });
    const list = document.getElementById(model.getAttribute('list') ?? '');
    await waitFor(() =>
      expect([...(list?.querySelectorAll('option') ?? [])].map((o) => o.value)).toContain(
        'my-sdxl',
      ),
    );
    await user.clear(model);
    await user.type(model, 'my-sdxl');
    await user.type(within(form).getByRole('textbox', { name: 'Prompt' }), 'a red fox{Enter}');
    await waitFor(() => expect(service.log.submits).toHaveLength(1));
    const body = service.log.submits[0]!.body as { prompt: typeof EXPORTED_WORKFLOW };
    expect(body.prompt['11'].inputs.text).toBe('a red fox');
    expect(body.prompt['16'].inputs.filename_prefix).toBe('mine');
    await waitFor(() => {
      const [record] = main.runtime.core.history.list({ limit: 5 }).items;
      expect(record).toMatchObject({
        status: 'completed',
        provider: 'comfyui',
        images: [{ state: 'saved' }],
      });
    });
    expect(service.log.submits).toHaveLength(1);

    // Compare offers it on a ComfyUI row too.
    await user.click(within(form).getByRole('button', { name: 'Compare…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Compare on several services' });
    const second = within(dialog).getByRole('group', { name: 'Target 2' });
    await user.selectOptions(within(second).getByRole('combobox', { name: 'Service' }), 'comfyui');
    const rowModel = within(second).getByRole('combobox', { name: 'Model' });
    const offered = document.getElementById(rowModel.getAttribute('list') ?? '');
    expect([...(offered?.querySelectorAll('option') ?? [])].map((o) => o.value)).toEqual([
      'my-sdxl',
    ]);
  });

  it('refuses a file that is no API-format workflow with the check’s own sentence, and keeps nothing', async () => {
    const app = await openComfySettings();
    const { user, main } = app;
    const panel = workflowsPanel();
    const cases = [
      JSON.stringify({ '1': { class_type: 'KSampler', inputs: { model: ['9', 0] } } }),
      JSON.stringify({ __proto__: { class_type: 'X', inputs: {} } }),
      JSON.stringify({ nodes: [], links: [] }),
      'not json {',
    ];
    for (const [n, text] of cases.entries()) {
      await pickedFile(app, `hostile-${String(n)}.json`, text);
      const read = readWorkflowText(text);
      if (read.ok) throw new Error('a hostile case was read as a workflow');
      await user.click(within(panel).getByRole('button', { name: 'Import a workflow…' }));
      const alert = await within(panel).findByRole('alert');
      expect(alert.textContent).toContain(
        `Pictor did not import this workflow: ${read.problem} Nothing was saved.`,
      );
      expect(within(panel).queryByLabelText('Model name')).toBeNull();
    }
    expect(await main.runtime.core.workflows.list()).toEqual([]);
  });

  it('lists the workflows kept and removes one', async () => {
    const app = await openComfySettings();
    const { user, main } = app;
    await pickedFile(app, 'portrait.json', JSON.stringify(EXPORTED_WORKFLOW));
    const panel = workflowsPanel();
    within(panel).getByText('No workflow imported yet.');
    await user.click(within(panel).getByRole('button', { name: 'Import a workflow…' }));
    await user.click(await within(panel).findByRole('button', { name: 'Save workflow' }));
    await user.click(await within(panel).findByRole('button', { name: 'Remove portrait' }));
    await within(panel).findByText('No workflow imported yet.');
    expect(await main.runtime.core.workflows.lookup('portrait')).toBeUndefined();
  });

  it('names a workflow by the one rule: a device’s name is refused, saying why, and a name differing only in case saves the workflow kept', async () => {
    const app = await openComfySettings();
    const { user, main } = app;
    await main.runtime.core.workflows.save('portrait', DEFAULT_WORKFLOW);
    await pickedFile(app, 'CON.json', JSON.stringify(EXPORTED_WORKFLOW));
    const panel = workflowsPanel();
    await user.click(within(panel).getByRole('button', { name: 'Import a workflow…' }));
    // The file's name is a device's on Windows: not suggested.
    const name = await within(panel).findByLabelText('Model name');
    expect(name).toHaveProperty('value', '');
    const save = within(panel).getByRole('button', { name: 'Save workflow' });
    const said = [
      ['CON', /^Windows takes a name whose part before the first dot is CON, PRN, AUX, NUL/],
      ['aux.json', /^Windows takes a name whose part before the first dot is CON, PRN, AUX, NUL/],
      ['portrait.', /^The name cannot end in a dot or a space/],
    ] as const;
    for (const [typed, sentence] of said) {
      await user.clear(name);
      await user.type(name, typed);
      expect(within(panel).getByText(sentence)).toBeTruthy();
      expect(name.getAttribute('aria-invalid')).toBe('true');
      expect(save).toHaveProperty('disabled', true);
    }
    await user.clear(name);
    await user.type(name, 'Portrait');
    expect(name.getAttribute('aria-invalid')).toBeNull();
    await user.click(save);
    // One workflow under the name it had: the book's, replaced, and said so.
    await within(panel).findByText(/^Saved portrait\./);
    expect((await main.runtime.core.workflows.list()).map((row) => row.name)).toEqual(['portrait']);
    expect((await main.runtime.core.workflows.lookup('portrait'))?.graph).toEqual(
      EXPORTED_WORKFLOW,
    );
    expect(within(panel).queryByRole('button', { name: 'Remove Portrait' })).toBeNull();
    within(panel).getByRole('button', { name: 'Remove portrait' });
  });

  it('connects ComfyUI in "Connect a service" by its address alone: it needs no key', async () => {
    const service = await startDialect('comfyui');
    const { user, main } = await startWiredApp();
    act(() => useAppStore.getState().connectShow(true));
    const dialog = await screen.findByRole('dialog', { name: 'Connect a service' });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Service' }), 'comfyui');
    const address = within(dialog).getByRole('textbox', { name: 'Address' });
    await user.clear(address);
    await user.type(address, service.url);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText(
      'Connected to ComfyUI at the address given; it needs no key. New tasks go there.',
    );
    expect(main.runtime.settings.get().serviceBaseUrls.comfyui).toBe(service.url);
    expect(useAppStore.getState().composeDraft.provider).toBe('comfyui');
    expect(main.callsTo('keys:set')).toEqual([]);
  });
});
