/**
 * Templates managed and reused in the window, over the app's real wiring: "Manage templates…"
 * saves a new template, edits it (main counts its version; main's sentence for a bad name shows
 * in the dialog) and deletes it, and exports the library through main's save dialog (main's
 * sentence of a file it could not write in the dialog); "Use this prompt" on a task made from a template brings back
 * the template, its values, mode and seed ("Run again with…"), and on a template's batch card its
 * count per prompt, each of its tasks named by its own prompt; the gallery's Template filter
 * asks main for that template's images only. An empty library shows no choice, only the way to
 * make one.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HISTORY_FILE } from '../../../../electron/core/pictor-core';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectGalleryItems } from '../../../../renderer/store/record-selectors';
import { seedGallery } from '../gallery/gallery-wired';
import { seedHistory, startWiredApp } from '../render-wired-app';

const form = () => screen.getByRole('form', { name: 'New task' });
const dialog = () => screen.getByRole('dialog', { name: 'Templates' });

describe('the Template choice', () => {
  it('is not shown while the library is empty, and shows once the CLI saved one and the window is focused', async () => {
    const { main } = await startWiredApp();
    await waitFor(() => expect(main.callsTo('templates:list').length).toBeGreaterThan(0));
    expect(within(form()).queryByRole('combobox', { name: 'Template' })).toBeNull();
    expect(within(form()).getByRole('button', { name: 'Manage templates…' })).toBeTruthy();
    await main.runtime.core.templates.save({ name: 'From the CLI', body: 'x {{prompt}}' });
    window.dispatchEvent(new Event('focus'));
    const select = await within(form()).findByRole('combobox', { name: 'Template' });
    expect(within(select).getByRole('option', { name: 'From the CLI' })).toBeTruthy();
  });
});

describe('Manage templates', () => {
  it('saves, edits (a new version) and deletes through main, and shows main’s sentence', async () => {
    const { user, main } = await startWiredApp();
    await user.click(within(form()).getByRole('button', { name: 'Manage templates…' }));
    await user.click(within(dialog()).getByRole('button', { name: 'New template' }));
    const editor = () => within(dialog()).getByRole('form', { name: 'Edit template' });
    await user.type(within(editor()).getByRole('textbox', { name: 'Name' }), 'bad\u202Ename');
    await user.click(within(editor()).getByRole('button', { name: 'Save' }));
    expect(await within(dialog()).findByText(/U\+202E/)).toBeTruthy();
    const name = within(editor()).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Portraits');
    await user.click(within(editor()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(main.runtime.core.templates.byName('Portraits')).toBeTruthy());
    const saved = main.runtime.core.templates.byName('Portraits')!.template!;
    expect(saved).toMatchObject({ body: '{{prompt}}', version: 1 });

    await user.click(await within(dialog()).findByRole('button', { name: 'Edit Portraits' }));
    const body = within(editor()).getByRole('textbox', { name: 'Template' });
    await user.clear(body);
    await user.type(body, 'a portrait of {{{{prompt}}');
    await user.click(within(editor()).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(main.runtime.core.templates.byId(saved.id)?.template?.version).toBe(2),
    );
    expect(main.callsTo('templates:save').at(-1)).toMatchObject({ id: saved.id, version: 1 });

    // The form has it chosen: deleting it takes it off the form too.
    useAppStore.getState().composeChooseTemplate(saved.id);
    // Delete asks first; Cancel keeps it, and nothing is asked of main.
    await user.click(await within(dialog()).findByRole('button', { name: 'Delete Portraits' }));
    const question = () =>
      screen.getByRole('alertdialog', { name: 'Delete the template “Portraits”?' });
    expect(question().textContent).toContain('keep their prompts and images');
    await user.click(within(question()).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(main.callsTo('templates:delete')).toEqual([]);
    expect(main.runtime.core.templates.byName('Portraits')).toBeTruthy();
    await user.click(within(dialog()).getByRole('button', { name: 'Delete Portraits' }));
    await user.click(within(question()).getByRole('button', { name: 'Delete Portraits' }));
    await waitFor(() => expect(main.runtime.core.templates.list()).toEqual([]));
    await waitFor(() => expect(useAppStore.getState().templates).toEqual([]));
    expect(useAppStore.getState().composeTemplate).toBeNull();
  });

  it('keeps the focus inside: Save and Cancel give it back to the button that opened the editor, and Escape closes', async () => {
    const { user, main } = await startWiredApp({
      prepare: async (wired) => {
        await wired.runtime.core.templates.save({ name: 'Portraits', body: 'a {{prompt}}' });
      },
    });
    await user.click(within(form()).getByRole('button', { name: 'Manage templates…' }));
    const editor = () => within(dialog()).getByRole('form', { name: 'Edit template' });
    // Edit, then Save: back on that template's Edit.
    await user.click(await within(dialog()).findByRole('button', { name: 'Edit Portraits' }));
    await user.type(within(editor()).getByRole('textbox', { name: 'Template' }), ' x');
    await user.click(within(editor()).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(dialog()).getByRole('button', { name: 'Edit Portraits' }),
      ),
    );
    expect(main.runtime.core.templates.byName('Portraits')?.template?.version).toBe(2);
    // New, then Cancel: back on New.
    await user.click(within(dialog()).getByRole('button', { name: 'New template' }));
    await user.click(within(editor()).getByRole('button', { name: 'Cancel' }));
    expect(document.activeElement).toBe(
      within(dialog()).getByRole('button', { name: 'New template' }),
    );
    // Escape still reaches the dialog.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Templates' })).toBeNull());
  });

  it('says how templates are written and previews what the body makes as it is typed', async () => {
    const { user } = await startWiredApp();
    await user.click(within(form()).getByRole('button', { name: 'Manage templates…' }));
    await user.click(within(dialog()).getByRole('button', { name: 'New template' }));
    const editor = within(dialog()).getByRole('form', { name: 'Edit template' });
    const help = within(editor).getByText('How to write a template').closest('details')!;
    for (const example of ['{red|green|blue}', '{{animal}} {{place=the sea}}', '{{prompt}}']) {
      expect(within(help).getByText(example)).toBeTruthy();
    }
    const body = within(editor).getByRole('textbox', { name: 'Template' });
    await user.clear(body);
    await user.type(body, 'a {{red|green|blue} {{big|small} boat');
    const preview = within(editor).getByRole('region', { name: 'Preview' });
    expect(within(preview).getByText('6 prompts')).toBeTruthy();
    expect(
      within(preview)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'a red big boat',
      'a red small boat',
      'a green big boat',
      'a green small boat',
      'a blue big boat',
    ]);
    // A body that does not parse says where.
    await user.type(body, ' {{{{oops');
    expect(within(preview).getByText(/line 1, column/)).toBeTruthy();
  });

  it('exports through main’s dialog, and shows main’s sentence of a file it could not write', async () => {
    const { user, main } = await startWiredApp();
    await main.runtime.core.templates.save({ name: 'Noir', body: '{{prompt}}, film noir' });
    await user.click(within(form()).getByRole('button', { name: 'Manage templates…' }));
    const saved = join(main.dir, 'styles.json');
    main.env.PICTOR_E2E_SAVE_TEMPLATES = saved;
    await user.click(within(dialog()).getByRole('button', { name: 'Export…' }));
    expect(await within(dialog()).findByText(/^Templates exported: 1\./)).toBeTruthy();
    expect(await readFile(saved, 'utf8')).toContain('film noir');
    const file = join(main.dir, 'unplugged', 'styles.json');
    // Main's save dialog answers a file in a folder that is not there (a drive unplugged).
    main.env.PICTOR_E2E_SAVE_TEMPLATES = file;
    await user.click(within(dialog()).getByRole('button', { name: 'Export…' }));
    expect(
      await within(dialog()).findByText(
        `Pictor could not save the file ${file} because its folder does not exist (ENOENT). Nothing was changed there; choose another folder, then try again.`,
      ),
    ).toBeTruthy();
    expect(main.callsTo('templates:export')).toEqual([{ format: 'pictor' }, { format: 'pictor' }]);
  });
});

describe('Manage templates, a stored template edited outside Pictor', () => {
  it('lists it with main’s sentence of why it cannot be read', async () => {
    const { user, main } = await startWiredApp({
      prepare: async (wired) => {
        await wired.runtime.core.templates.save({ name: 'Good', body: 'fine' });
        const bad = await wired.runtime.core.templates.save({ name: 'Mangled', body: 'fine' });
        const db = new DatabaseSync(join(wired.runtime.dataDir, HISTORY_FILE));
        db.prepare('UPDATE templates SET record = ? WHERE id = ?').run('{not json', bad.id);
        db.close();
      },
    });
    expect(main.runtime.core.templates.list()).toHaveLength(2);
    await user.click(within(form()).getByRole('button', { name: 'Manage templates…' }));
    const row = await within(dialog()).findByText(/cannot be read/);
    expect(row.closest('li')?.textContent).toBe(
      'Mangled: The stored template “Mangled” cannot be read: it was changed outside Pictor. Delete it, or import it again from a file.',
    );
    expect(within(dialog()).getByRole('button', { name: 'Edit Good' })).toBeTruthy();
  });
});

const TEMPLATE_ID = '0b6f1d7e-3c1a-4c55-9a0e-2f1d3c4b5a61';

describe('a task made from a template', () => {
  it('“Use this prompt” brings back its template, values, mode and seed', async () => {
    let id = '';
    const { user } = await startWiredApp({
      prepare: async (main) => {
        const saved = await main.runtime.core.templates.save({
          name: 'Colours',
          body: '{{prompt}}',
        });
        id = saved.id;
        const template = (templateId: string) => ({
          id: templateId,
          name: 'Colours',
          version: 3,
          values: { animal: 'heron', prompt: 'at dawn' },
          mode: 'random' as const,
          seed: 4242,
        });
        // The newest task's template is in the library; the older one's was deleted since.
        seedGallery(main, 2, (n) => ({
          status: 'completed',
          request: { prompt: 'a red heron' },
          template: template(n === 0 ? id : TEMPLATE_ID),
        }));
      },
    });
    const row = screen.getAllByRole('article')[0]!;
    await user.click(within(row).getByRole('button', { name: 'Use this prompt' }));
    await waitFor(() =>
      expect(useAppStore.getState().composeTemplate).toMatchObject({
        id,
        values: { animal: 'heron' },
        mode: 'random',
        seed: 4242,
      }),
    );
    expect(useAppStore.getState().composeDraft.prompt).toBe('at dawn');
    // A template no longer in the library brings back its prompt, not a choice that names nothing.
    await user.click(
      within(screen.getAllByRole('article')[1]!).getByRole('button', { name: 'Use this prompt' }),
    );
    await waitFor(() => expect(useAppStore.getState().composeTemplate).toBeNull());
    expect(useAppStore.getState().composeDraft.prompt).toBe('at dawn');
  });

  it('the gallery’s Template filter asks main for that template’s images only', async () => {
    let id = '';
    const { user, main } = await startWiredApp({
      prepare: async (wired) => {
        id = (await wired.runtime.core.templates.save({ name: 'Colours', body: '{a|b}' })).id;
        seedGallery(wired, 3, (n) =>
          n === 1
            ? { template: { id, name: 'Colours', version: 1, values: {}, mode: 'combinatorial' } }
            : {},
        );
      },
    });
    useAppStore.getState().setView('gallery');
    // The Tasks screen (and its compose form's Template choice) is out of view.
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New task' })).toBeNull());
    const select = await screen.findByRole('combobox', { name: 'Template' });
    await waitFor(() =>
      expect(within(select).getByRole('option', { name: 'Colours' })).toBeTruthy(),
    );
    await user.selectOptions(select, id);
    await waitFor(() =>
      expect(main.callsTo('gallery:list').at(-1)).toMatchObject({ template: id }),
    );
    await waitFor(() =>
      expect(selectGalleryItems(useAppStore.getState()).map((item) => item.localId)).toEqual([
        'seed-000001',
      ]),
    );
  });

  it('a template’s batch card names each task by its own prompt, and “Use this prompt” brings back the count per prompt', async () => {
    let id = '';
    const PROMPTS = ['a red heron', 'a red heron', 'a blue heron', 'a blue heron'];
    const { user } = await startWiredApp({
      prepare: async (main) => {
        id = (
          await main.runtime.core.templates.save({ name: 'Herons', body: 'a {red|blue} heron' })
        ).id;
        const template = {
          id,
          name: 'Herons',
          version: 1,
          values: {},
          mode: 'combinatorial' as const,
        };
        // One submit of two prompts × 2: four tasks of one batch, made at the same moment.
        seedHistory(main, 4, (n) => ({
          status: 'completed',
          prompt: PROMPTS[n]!,
          batchId: 'seed-batch',
          createdAt: Date.UTC(2026, 0, 15, 12),
          template,
        }));
      },
    });
    const card = document.querySelector<HTMLElement>('.task-batch')!;
    expect(within(card).getAllByRole('article', { name: 'a red heron' })).toHaveLength(2);
    expect(within(card).getAllByRole('article', { name: 'a blue heron' })).toHaveLength(2);
    await user.click(within(card).getByRole('button', { name: 'Use this prompt' }));
    await waitFor(() => expect(useAppStore.getState().composeTemplate).toMatchObject({ id }));
    // Generate then sends the same four tasks, not four per prompt.
    expect(useAppStore.getState().composeDraft.count).toBe('2');
  });
});
