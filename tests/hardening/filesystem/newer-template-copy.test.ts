/**
 * The library folder's copy of the templates (`.pictor-templates/templates.json`,
 * template-backup.ts) as a newer Pictor wrote it: a later `schemaVersion`. On real files, this
 * version neither restores from it (a rebuild would take only the entries it can read) nor writes
 * its own set over it at its next change of a template; a copy of this version's schema, with
 * fields it does not know, is read as before. Controls: no copy, or one of this version, is
 * written as always.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TemplateBackup } from '../../../electron/core/templates/template-backup';
import type { PromptTemplate } from '../../../shared/domain/prompt-template';
import { silentLogger } from '../../../electron/ports/logger';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let root: string;
let file: string;

const TEMPLATE = {
  id: '6f1c2b9e-6a43-4f4e-9a39-0d5c1f3b7a11',
  name: 'Portrait',
  body: 'a portrait of {subject}',
  version: 1,
  createdAt: Date.UTC(2025, 0, 1),
  updatedAt: Date.UTC(2025, 0, 1),
} as unknown as PromptTemplate;

beforeEach(async () => {
  root = await tempFolder('newer-templates');
  await mkdir(join(root, '.pictor-templates'));
  file = join(root, '.pictor-templates', 'templates.json');
});

afterEach(async () => {
  await removeFolder(root);
});

const backup = () => new TemplateBackup(() => root, silentLogger);
const ours = () => ({ templates: [TEMPLATE], wordLists: [] });

describe("a newer Pictor's copy of the templates", () => {
  it('is not read, and not written over by a change of this version', async () => {
    for (const version of [2, 99, 1.5]) {
      const text = JSON.stringify({
        format: 'pictor-templates',
        schemaVersion: version,
        templates: [{ ...TEMPLATE, kind: 'a newer kind' }],
        groups: [{ name: 'kept' }],
      });
      await writeFile(file, text);
      expect(await backup().read(), String(version)).toBeNull();
      await backup().write(ours);
      expect(await readFile(file, 'utf8'), String(version)).toBe(text);
    }
  });

  it("controls: none, this version's (unknown fields and all) and one without a version are written", async () => {
    await backup().write(ours);
    const written = await readFile(file, 'utf8');
    expect(JSON.parse(written)).toMatchObject({
      schemaVersion: 1,
      templates: [{ id: TEMPLATE.id }],
    });
    for (const head of [{ schemaVersion: 1, extra: true }, {}, { schemaVersion: '2' }]) {
      await writeFile(file, JSON.stringify({ format: 'pictor-templates', ...head, templates: [] }));
      await backup().write(ours);
      expect(await readFile(file, 'utf8')).toBe(written);
    }
  });
});
