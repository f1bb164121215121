/**
 * Template names that draw nothing extra, and so read as another: `keep\u200b`, `keep\u3164`,
 * `keep\u034f`… were taken as a template's name (prompt-template.ts refused controls, line
 * separators and bidi marks only), while tags and board names given now are refused them by the
 * one rule of a user's word (shared/text/control-characters.ts `invisibleInWords`). From the
 * window, the CLI or an agent (all through the core's TemplateStore) and from a template file,
 * such a name is refused now with the template's own sentence; what real words need stays. A
 * name stored before (a library written by the version before, its key re-folded by history v22)
 * is read as it is, is the template of its plain name, and keeps its name on a save.
 */
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { TemplateStoreError } from '../../../electron/core/templates/template-error';
import { checkTemplateName, promptTemplateSchema } from '../../../shared/domain/prompt-template';
import { checkTag } from '../../../shared/domain/triage';
import { offlineCore, offlineDir } from '../../support/offline-core';
import { everyInvisible, hex, TWINS_OF_KEEP } from '../../support/invisible-words';

/** The sentence key a save refuses with, or null when it was taken. */
async function refusedWith(run: () => Promise<unknown>): Promise<string | null> {
  try {
    await run();
    return null;
  } catch (error) {
    if (error instanceof TemplateStoreError) return error.sentence?.key ?? error.message;
    throw error;
  }
}

describe('a template’s name', () => {
  // Given now, it is refused what tags and boards are (tag-board-twins.test.ts tries every
  // code point through checkTemplateName too, and the real words that stay).
  it('stored with a character that draws nothing is read as a stored tag is, as its plain name', () => {
    const letThrough: string[] = [];
    for (const code of everyInvisible()) {
      const c = String.fromCodePoint(code);
      // A bidi mark or the BOM is never read, stored or not; the rest are, as their plain name.
      const stored = checkTemplateName(`Ke${c}EP`, false);
      if (stored.ok !== checkTag(`Ke${c}EP`, false).ok) letThrough.push(`${hex(code)} stored`);
      if (stored.ok && stored.key !== 'keep') letThrough.push(`${hex(code)} key`);
    }
    expect(letThrough).toEqual([]);
  });
});

describe('every writer of templates', () => {
  it('refuses a twin as a new name, a new name on a rename and a file’s entry', async () => {
    const core = await offlineCore();
    for (const twin of TWINS_OF_KEEP) {
      const made = () => core.templates.save({ name: twin, body: 'x' });
      expect(await refusedWith(made), JSON.stringify(twin)).toBe(
        'error.templateFile.nameCharacter',
      );
    }
    const plain = await core.templates.save({ name: 'keep', body: 'x' });
    for (const twin of TWINS_OF_KEEP) {
      const renamed = () => core.templates.rename(plain.id, twin);
      expect(await refusedWith(renamed)).toBe('error.templateFile.nameCharacter');
    }
    const file = join(core.dir, 'mine.json');
    const templates = [
      ...TWINS_OF_KEEP.map((name) => ({ name, body: 'y' })),
      { name: 'Other', body: 'z' },
    ];
    await writeFile(
      file,
      JSON.stringify({ format: 'pictor-templates', schemaVersion: 1, templates }),
    );
    const summary = await core.templates.importFile(file, 'pictor');
    expect(summary.imported).toBe(1);
    expect(new Set(summary.problems.map((p) => p.problem.key))).toEqual(
      new Set(['error.templateFile.nameCharacter']),
    );
    expect(summary.problems).toHaveLength(TWINS_OF_KEEP.length);
    const names = core.templates.list().map((stored) => stored.template?.name);
    expect(names.sort()).toEqual(['Other', 'keep']);
  });
});

describe('a template’s name stored before the rule', () => {
  it('is read as it is, is the template of its plain name, and keeps its name on a save', async () => {
    const dir = await offlineDir();
    const core = await offlineCore({ dir });
    const made = await core.templates.save({ name: 'Portrait', body: 'x' });
    // The version before stored the name as typed (its key re-folded to `portrait` by v22).
    const twin = 'Portrait\u200b';
    const db = new DatabaseSync(join(dir, 'data', HISTORY_FILE));
    db.prepare('UPDATE templates SET name = ?, record = ? WHERE id = ?').run(
      twin,
      JSON.stringify({ ...made, name: twin }),
      made.id,
    );
    db.close();
    expect(promptTemplateSchema().safeParse({ ...made, name: twin }).success).toBe(true);
    expect(core.templates.list().map((stored) => stored.template?.name)).toEqual([twin]);
    expect(core.templates.byName('PORTRAIT')?.template?.id).toBe(made.id);
    const saved = await core.templates.save({ id: made.id, name: twin, body: 'y', version: 1 });
    expect(saved).toMatchObject({ id: made.id, name: twin, body: 'y', version: 2 });
    // Its plain name is its own: no second template of it, and a rename to it is taken.
    expect(await refusedWith(() => core.templates.save({ name: 'portrait', body: 'z' }))).toBe(
      'error.templateStore.exists',
    );
    const renamed = await core.templates.rename(made.id, 'Portrait');
    expect(renamed).toMatchObject({ name: 'Portrait', version: 3 });
    expect(core.templates.list()).toHaveLength(1);
  });
});
