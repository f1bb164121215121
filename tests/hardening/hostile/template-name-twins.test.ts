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
import { checkTag, foldName } from '../../../shared/domain/triage';
import { offlineCore, offlineDir } from '../../support/offline-core';
import { everyInvisible, hex, REAL_WORDS, TWINS_OF_KEEP } from '../../support/invisible-words';

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

describe('a template’s name given now', () => {
  it('is refused whatever character that draws nothing it holds, at its end or inside', () => {
    const every = everyInvisible();
    expect(every.length).toBeGreaterThan(4_000);
    const letThrough: string[] = [];
    for (const code of every) {
      const c = String.fromCodePoint(code);
      for (const name of [`keep${c}`, `ke${c}ep`]) {
        const checked = checkTemplateName(name);
        // Trimmed away (U+FEFF is white space to `trim`): the name is then the plain one.
        if (checked.ok && !checked.name.includes(c)) continue;
        if (checked.ok) letThrough.push(hex(code));
        else if (checked.problem.key !== 'error.templateFile.nameCharacter') {
          letThrough.push(`${hex(code)}: ${checked.problem.key}`);
        }
      }
      // Stored with it, it is read as a stored tag is (a bidi mark or the BOM never is), and
      // it is its plain spelling's template.
      const stored = checkTemplateName(`Ke${c}EP`, false);
      if (stored.ok !== checkTag(`Ke${c}EP`, false).ok) letThrough.push(`${hex(code)} stored`);
      if (stored.ok && stored.key !== 'keep') letThrough.push(`${hex(code)} key`);
    }
    expect(letThrough).toEqual([]);
  });

  it('names the character in the sentence', () => {
    const checked = checkTemplateName('keep\u3164');
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.problem.params).toEqual({ character: 'U+3164' });
  });

  it.each(Object.entries(REAL_WORDS))('keeps %s, as its own word', (_, word) => {
    const checked = checkTemplateName(`${word} x`);
    expect(checked.ok, JSON.stringify(checked)).toBe(true);
    if (checked.ok) expect(checked.key).toBe(foldName(`${word} x`));
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
