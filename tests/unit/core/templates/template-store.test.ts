/**
 * The library's templates on the real core (history on disk): made at version 1 and moved on by
 * each save, a save naming a version someone moved on from refused with nothing written, names
 * unique whatever their case, bodies that do not parse refused with their line and column, the
 * library's limit, a row edited by hand listed as a sentence, an import written whole or not at
 * all (a fault injected mid-import), and word lists' rules (names, sizes, control and bidi
 * characters). The folder's copy restores them after a rebuild of a lost history.
 */
import { rename, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { beforeEach, describe, expect, it } from 'vitest';
import { HISTORY_FILE, type PictorCore } from '../../../../electron/core/pictor-core';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import { TemplateStore } from '../../../../electron/core/templates/template-store';
import { TemplateStoreError } from '../../../../electron/core/templates/template-error';
import { MAX_LIBRARY_TEMPLATES } from '../../../../shared/domain/template-library';
import { MAX_WORD_LISTS, MAX_WORDS_PER_LIST } from '../../../../shared/domain/word-lists';
import { ManualClock } from '../../../fakes/manual-clock';
import { offlineCore, offlineDir } from '../../../support/offline-core';

let dir: string;
let clock: ManualClock;

/** An offline core on the test's library and clock. */
const open = () => offlineCore({ dir, clock });

async function refusal(run: () => Promise<unknown>): Promise<{ message: string; code: string }> {
  try {
    await run();
  } catch (error) {
    if (error instanceof TemplateStoreError) return { message: error.message, code: error.code };
    throw error;
  }
  throw new Error('did not throw');
}

const names = (core: PictorCore) =>
  core.templates.list().map((s) => (s.template ? s.template.name : `!${s.name}`));

beforeEach(async () => {
  dir = await offlineDir();
  clock = new ManualClock(1_700_000_000_000);
});

describe('TemplateStore', () => {
  it('makes a template at version 1 and moves it on by one at each save, keeping its id', async () => {
    const core = await open();
    const made = await core.templates.save({
      name: ' Portrait ',
      body: 'a {{prompt}}, {red|blue}',
    });
    expect(made).toMatchObject({ name: 'Portrait', version: 1 });
    await clock.advance(1000);
    const changed = await core.templates.save({
      id: made.id,
      name: 'Portrait',
      body: 'b {{prompt}}',
      version: 1,
    });
    expect(changed).toMatchObject({
      id: made.id,
      version: 2,
      body: 'b {{prompt}}',
      createdAt: made.createdAt,
    });
    expect(changed.updatedAt).toBe(made.updatedAt + 1000);
    const again = await core.templates.save({ id: made.id, name: 'Portrait', body: 'c' });
    expect(again.version).toBe(3);
    expect(core.templates.byName('PORTRAIT')?.template?.body).toBe('c');
    expect(core.templates.byId(made.id)?.template?.version).toBe(3);
  });

  it('refuses a save of a version someone moved on from, in this process or another', async () => {
    const core = await open();
    const made = await core.templates.save({ name: 'Shared', body: 'one' });
    await core.templates.save({ id: made.id, name: 'Shared', body: 'two', version: 1 });
    const stale = await refusal(() =>
      core.templates.save({ id: made.id, name: 'Shared', body: 'three', version: 1 }),
    );
    expect(stale.message).toMatch(/changed elsewhere.*version 2/);
    // A second process (the CLI) over the same history file moves it on too.
    const other = HistoryStore.open(join(dir, 'data', HISTORY_FILE));
    try {
      const store = new TemplateStore({ rows: other.templates, now: () => 5 });
      await store.save({ id: made.id, name: 'Shared', body: 'cli', version: 2 });
    } finally {
      other.close();
    }
    const late = await refusal(() =>
      core.templates.save({ id: made.id, name: 'Shared', body: 'window', version: 2 }),
    );
    expect(late.message).toMatch(/version 3/);
    expect(core.templates.byName('shared')?.template?.body).toBe('cli');
  });

  it('keeps one template per name whatever its case, and renames within that rule', async () => {
    const core = await open();
    const a = await core.templates.save({ name: 'Straße', body: 'a' });
    for (const taken of ['STRASSE', 'straße', ' Straße ']) {
      const refused = await refusal(() => core.templates.save({ name: taken, body: 'b' }));
      expect(refused.message).toBe('There is already a template named “Straße”.');
    }
    const b = await core.templates.save({ name: 'Other', body: 'b' });
    expect((await refusal(() => core.templates.rename(b.id, 'strasse'))).code).toBe('bad_input');
    const renamed = await core.templates.rename(a.id, 'Street');
    expect(renamed).toMatchObject({ name: 'Street', version: 2 });
    expect(names(core)).toEqual(['Other', 'Street']);
    await core.templates.remove(b.id);
    expect((await refusal(() => core.templates.remove(b.id))).code).toBe('not_found');
    expect(names(core)).toEqual(['Street']);
  });

  it('refuses a body that does not parse with its line and column, and writes nothing', async () => {
    const core = await open();
    for (const [body, where] of [
      ['ok\n{a|b', /line 2, column 1/],
      ['x }', /line 1, column 3/],
      ['__bad name__', /line 1, column 1/],
      ['{{1x}}', /line 1, column 1/],
    ] as const) {
      expect((await refusal(() => core.templates.save({ name: 'T', body }))).message).toMatch(
        where,
      );
    }
    const long = await refusal(() => core.templates.save({ name: 'T', body: 'x'.repeat(40_000) }));
    expect(long.message).toMatch(/at most/);
    for (const name of ['', 'a\u202Eb', 'a\u0000b', 'n'.repeat(101)]) {
      expect((await refusal(() => core.templates.save({ name, body: 'x' }))).code).toBe(
        'bad_input',
      );
    }
    expect(core.templates.list()).toEqual([]);
  });

  it('stops at the library’s limit of templates with a sentence', async () => {
    const core = await open();
    const db = new DatabaseSync(join(dir, 'data', HISTORY_FILE));
    const insert = db.prepare(
      'INSERT INTO templates (id, name, name_key, record, version, updated_at) VALUES (?, ?, ?, ?, 1, 0)',
    );
    db.exec('BEGIN');
    for (let n = 0; n < MAX_LIBRARY_TEMPLATES; n += 1)
      insert.run(`id-${n}`, `t${n}`, `t${n}`, '{}');
    db.exec('COMMIT');
    db.close();
    const refused = await refusal(() => core.templates.save({ name: 'One more', body: 'x' }));
    expect(refused.message).toBe('A library can hold at most 10,000 templates.');
  });

  it('lists a row edited by hand as a sentence, never as a template', async () => {
    const core = await open();
    const good = await core.templates.save({ name: 'Good', body: 'fine' });
    const bad = await core.templates.save({ name: 'Bad', body: 'fine' });
    const broken = await core.templates.save({ name: 'Broken', body: 'fine' });
    const db = new DatabaseSync(join(dir, 'data', HISTORY_FILE));
    const edit = db.prepare('UPDATE templates SET record = ? WHERE id = ?');
    edit.run(JSON.stringify({ ...bad, body: 'oops {' }), bad.id);
    edit.run('{not json', broken.id);
    // A name edited by hand is shown cleaned: no bidi override, no control character.
    db.prepare('UPDATE templates SET name = ? WHERE id = ?').run('Bro\u202Eken\u0007', broken.id);
    db.close();
    const listed = core.templates.list();
    expect(listed.map((s) => s.template?.name ?? null)).toEqual([null, null, 'Good']);
    expect(listed[0]).toMatchObject({
      name: 'Bad',
      problem: { key: 'error.templateStore.damaged' },
    });
    expect(core.templates.byId(good.id)?.template?.body).toBe('fine');
    expect(listed[1]).toMatchObject({
      name: 'Broken',
      problem: { key: 'error.templateStore.damaged', params: { name: 'Broken' } },
    });
  });

  it('imports a file in one transaction: a fault mid-import leaves nothing', async () => {
    const core = await open();
    const file = join(dir, 'styles.json');
    const styles = Array.from({ length: 5 }, (_, n) => ({
      name: `S${n}`,
      prompt: `{prompt} ${n}`,
      negative_prompt: '',
    }));
    await writeFile(file, JSON.stringify(styles));
    const history = HistoryStore.open(join(dir, 'data', HISTORY_FILE));
    try {
      const faulty = new TemplateStore({
        rows: history.templates,
        now: () => 1,
        beforeImportRow: (index) => {
          if (index === 3) throw new Error('disk gone');
        },
      });
      await expect(faulty.importFile(file, 'fooocus')).rejects.toThrow();
    } finally {
      history.close();
    }
    expect(core.templates.list()).toEqual([]);
    const summary = await core.templates.importFile(file, 'fooocus');
    expect(summary).toEqual({ imported: 5, format: 'fooocus', problems: [] });
    const again = await core.templates.importFile(file, 'fooocus');
    expect(again.imported).toBe(5);
    expect(names(core)).toContain('S0 (2)');
  });

  it('reports an imported body that does not parse, and keeps the rest', async () => {
    const core = await open();
    const file = join(dir, 'mine.json');
    const entry = (name: string, body: string) => ({ name, body });
    await writeFile(
      file,
      JSON.stringify({
        format: 'pictor-templates',
        schemaVersion: 1,
        templates: [entry('Ok', 'x'), entry('Bad', 'a {b'), 7],
      }),
    );
    const summary = await core.templates.importFile(file, 'pictor');
    expect(summary.imported).toBe(1);
    expect(summary.problems.map((p) => p.problem.key).sort()).toEqual([
      'error.template.unclosedChoice',
      'error.templateFile.entryInvalid',
    ]);
  });
});

describe('word lists', () => {
  it('keeps lists by name, replaces them whatever the case, and deletes them', async () => {
    const core = await open();
    await core.templates.saveWordList('colors', [' red ', '', 'blue']);
    expect(core.templates.wordLists()).toEqual(new Map([['colors', ['red', 'blue']]]));
    await core.templates.saveWordList('Colors', ['green']);
    expect(core.templates.wordLists()).toEqual(new Map([['Colors', ['green']]]));
    await core.templates.removeWordList('COLORS');
    expect(core.templates.wordLists().size).toBe(0);
    await expect(core.templates.removeWordList('colors')).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('refuses bad names, words and sizes with a sentence, writing nothing', async () => {
    const core = await open();
    const cases: [string, string[], RegExp][] = [
      ['bad name', ['a'], /not a word list name/],
      ['a__b', ['a'], /not a word list name/],
      ['_a', ['a'], /not a word list name/],
      ['x'.repeat(65), ['a'], /not a word list name/],
      ['ok', ['fine', 'evil\u202Eword'], /Word 2 .*U\+202E/],
      ['ok', ['tab\there'], /U\+0009/],
      ['ok', ['zero\u200Fwidth'], /U\+200F/],
      ['ok', ['line\u2028sep'], /U\+2028/],
      ['ok', ['y'.repeat(201)], /longer than 200/],
      [
        'ok',
        Array.from({ length: MAX_WORDS_PER_LIST + 1 }, (_, n) => `w${n}`),
        /at most 1,000 words/,
      ],
    ];
    for (const [name, words, said] of cases) {
      expect((await refusal(() => core.templates.saveWordList(name, words))).message).toMatch(said);
    }
    expect(core.templates.wordLists().size).toBe(0);
    await core.templates.saveWordList(
      'a-b_c',
      Array.from({ length: MAX_WORDS_PER_LIST }, (_, n) => `w${n}`),
    );
    expect(core.templates.wordLists().get('a-b_c')).toHaveLength(MAX_WORDS_PER_LIST);
  });

  it('stops at the limit of lists', async () => {
    const core = await open();
    const db = new DatabaseSync(join(dir, 'data', HISTORY_FILE));
    const insert = db.prepare(
      'INSERT INTO word_lists (name_key, name, words, updated_at) VALUES (?, ?, ?, 0)',
    );
    for (let n = 0; n < MAX_WORD_LISTS; n += 1) insert.run(`l${n}`, `l${n}`, '["a"]');
    insert.run('hand', 'Edited', '["a"]');
    db.close();
    expect(core.templates.wordLists().has('Edited')).toBe(false);
    const refused = await refusal(() => core.templates.saveWordList('more', ['a']));
    expect(refused.message).toBe('A library can hold at most 500 word lists.');
    await core.templates.saveWordList('L1', ['b']);
    expect(core.templates.wordLists().get('L1')).toEqual(['b']);
  });
});

describe('the copy in the library folder', () => {
  it('brings templates and word lists back when a rebuild makes the history again', async () => {
    const first = await open();
    const made = await first.templates.save({
      name: 'Kept',
      body: 'a __colors__ {{prompt}}',
      negative: 'blur',
    });
    await first.templates.save({
      id: made.id,
      name: 'Kept',
      body: 'b __colors__ {{prompt}}',
      negative: 'blur',
    });
    await first.templates.saveWordList('colors', ['red', 'blue']);
    await first.close();
    await rm(join(dir, 'data'), { recursive: true });

    const rebuilt = await open();
    expect(rebuilt.templates.list()).toEqual([]);
    const summary = await rebuilt.operations.rebuild();
    expect(summary).toMatchObject({ templates: 1, wordLists: 1 });
    expect(rebuilt.templates.byName('kept')?.template).toMatchObject({
      id: made.id,
      body: 'b __colors__ {{prompt}}',
      negative: 'blur',
      version: 2,
    });
    expect(rebuilt.templates.wordLists().get('colors')).toEqual(['red', 'blue']);
    // A second rebuild adds nothing twice.
    expect(await rebuilt.operations.rebuild()).toMatchObject({ templates: 0, wordLists: 0 });
  });

  it('restores nothing from a copy that is not one, and keeps the history’s own', async () => {
    const core = await open();
    await core.templates.save({ name: 'Mine', body: 'x' });
    await writeFile(
      join(dir, 'gallery', '.pictor-templates', 'templates.json'),
      '{"templates": "no"}',
    );
    expect(await core.operations.rebuild()).toMatchObject({ templates: 0, wordLists: 0 });
    expect(names(core)).toEqual(['Mine']);
  });
});

describe('a copy in the library folder that is not what it seems', () => {
  async function madeAndLost(count: number): Promise<void> {
    const first = await open();
    for (let n = 0; n < count; n += 1) await first.templates.save({ name: `Kept ${n}`, body: 'x' });
    await first.close();
    await rm(join(dir, 'data'), { recursive: true });
  }

  it('restores up to the library’s limit and counts only what it wrote', async () => {
    await madeAndLost(3);
    const core = await open();
    const db = new DatabaseSync(join(dir, 'data', HISTORY_FILE));
    const insert = db.prepare(
      'INSERT INTO templates (id, name, name_key, record, version, updated_at) VALUES (?, ?, ?, ?, 1, 0)',
    );
    db.exec('BEGIN');
    for (let n = 0; n < MAX_LIBRARY_TEMPLATES - 1; n += 1)
      insert.run(`id-${n}`, `t${n}`, `t${n}`, '{}');
    db.exec('COMMIT');
    db.close();
    expect(await core.operations.rebuild()).toMatchObject({ templates: 1 });
    expect(core.templates.list()).toHaveLength(MAX_LIBRARY_TEMPLATES);
  });

  it('does not follow a link planted in place of the copy', async () => {
    await madeAndLost(1);
    const core = await open();
    const copy = join(dir, 'gallery', '.pictor-templates', 'templates.json');
    const elsewhere = join(dir, 'elsewhere.json');
    await rename(copy, elsewhere);
    await symlink(elsewhere, copy);
    expect(await core.operations.rebuild()).toMatchObject({ templates: 0 });
    expect(core.templates.list()).toEqual([]);
  });

  it('does not read a copy past its size bound', async () => {
    await madeAndLost(1);
    const core = await open();
    const copy = join(dir, 'gallery', '.pictor-templates', 'templates.json');
    // A sparse file: its size is past the bound, its blocks never written.
    await truncate(copy, 400 * 1024 * 1024);
    expect(await core.operations.rebuild()).toMatchObject({ templates: 0 });
    expect(core.templates.list()).toEqual([]);
  });
});

describe('the templates migration', () => {
  it('adds empty tables to a library of the version before it, its tasks kept', async () => {
    const file = join(dir, 'history.sqlite');
    const { HISTORY_MIGRATIONS } = await import('../../../../electron/core/history/history-schema');
    const { addTemplates } = await import('../../../../electron/core/history/template-schema');
    const before = HISTORY_MIGRATIONS.indexOf(addTemplates);
    HistoryStore.open(file, { migrations: HISTORY_MIGRATIONS.slice(0, before) }).close();
    const store = HistoryStore.open(file);
    try {
      expect(store.schemaVersion).toBe(HISTORY_MIGRATIONS.length);
      expect(store.templates.list()).toEqual([]);
      expect(store.templates.wordLists()).toEqual([]);
    } finally {
      store.close();
    }
  });
});
