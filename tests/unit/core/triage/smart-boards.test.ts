/**
 * Smart boards on the real core (history on disk): created, listed, renamed, changed and deleted
 * by name, any case; names and rules refused with sentences and nothing written; one name per
 * library even across two processes; the limit of smart boards; a rule naming a board or tag that
 * is gone reported per rule while the board still lists its images; a board's move followed by
 * the rules naming it; a row edited by hand listed with a sentence and matching nothing.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PictorCore } from '../../../../electron/core/pictor-core';
import { TriageError } from '../../../../electron/core/triage/triage-error';
import type { SmartBoardEntry, SmartRules } from '../../../../shared/domain/smart-board';
import { englishText } from '../../../../shared/i18n/sentence';
import { ManualClock } from '../../../fakes/manual-clock';
import { makeImage, makeTask } from '../../../support/task-records';
import { offlineCore, offlineDir } from '../../../support/offline-core';

let dir: string;
let clock: ManualClock;

/** An offline core on the test's library and clock. */
const open = () => offlineCore({ dir, clock });

/** Task a: a cat in Clients/Acme rated 5; task b: a dog in no board, rated 2. */
function seed(core: PictorCore): void {
  core.history.putMany([
    makeTask({
      localId: 'a',
      createdAt: 1_700_000_000_000,
      images: [makeImage(0, { rating: 5, tags: ['cat'], boards: ['Clients/Acme'] })],
    }),
    makeTask({
      localId: 'b',
      createdAt: 1_700_000_000_001,
      images: [makeImage(0, { rating: 2, tags: ['dog'] })],
    }),
  ]);
}

const refusal = (run: () => unknown): { sentence: string; code: string } => {
  try {
    run();
  } catch (error) {
    if (error instanceof TriageError) return { sentence: error.message, code: error.code };
    throw error;
  }
  throw new Error('did not throw');
};
const rated: SmartRules = { match: 'all', items: [{ kind: 'rating', op: '>=', value: 4 }] };
const listed = (core: PictorCore, name: string) =>
  core.history
    .listImages({ smart: core.smartBoards.rulesOf(name) })
    .items.map((item) => item.localId);
const problems = (entry: SmartBoardEntry) =>
  (entry.report?.items ?? []).map((item) =>
    'rules' in item ? null : { missing: item.missing, said: item.problems.map(englishText) },
  );

beforeEach(async () => {
  dir = await offlineDir();
  clock = new ManualClock(1_800_000_000_000);
});

describe('smart boards', () => {
  it('are created, found by any case, renamed, changed and deleted; images never change', async () => {
    const core = await open();
    seed(core);
    const made = core.smartBoards.create('  Best ', rated);
    expect(made).toMatchObject({ name: 'Best', createdAt: clock.now(), rules: rated });
    expect(listed(core, 'BEST')).toEqual(['a']);
    core.smartBoards.create('Dogs', {
      match: 'any',
      items: [{ kind: 'tags', mode: 'any', tags: ['dog'] }],
    });
    expect(core.smartBoards.list().map((entry) => entry.name)).toEqual(['Best', 'Dogs']);
    expect(core.smartBoards.rename('best', 'Top/2026').id).toBe(made.id);
    const changed = core.smartBoards.update('top/2026', {
      match: 'all',
      items: [{ kind: 'rating', op: '<=', value: 2 }],
    });
    expect(changed.rules?.items).toEqual([{ kind: 'rating', op: '<=', value: 2 }]);
    expect(listed(core, 'Top/2026')).toEqual(['b']);
    core.smartBoards.delete('TOP/2026');
    expect(core.smartBoards.list().map((entry) => entry.name)).toEqual(['Dogs']);
    expect(refusal(() => core.smartBoards.get('Top/2026'))).toEqual({
      sentence: 'There is no smart board “Top/2026”.',
      code: 'not_found',
    });
    expect(core.history.get('a')?.images[0]).toMatchObject({ rating: 5, tags: ['cat'] });
  });

  it('refuse a bad name, bad rules and a name taken (any case), writing nothing', async () => {
    const core = await open();
    core.smartBoards.create('Best', rated);
    expect(refusal(() => core.smartBoards.create('  ', rated)).sentence).toBe(
      'A board name cannot be empty.',
    );
    expect(refusal(() => core.smartBoards.create('Evil\u202E', rated)).sentence).toBe(
      'A board name cannot contain the character U+202E.',
    );
    expect(refusal(() => core.smartBoards.create('BEST', rated)).sentence).toBe(
      'There is already a smart board named “Best”.',
    );
    const many = { match: 'all', items: Array(21).fill(rated.items[0]) };
    expect(refusal(() => core.smartBoards.create('Many', many)).sentence).toBe(
      'A smart board can have at most 20 rules; these are 21.',
    );
    core.smartBoards.create('Other', rated);
    expect(refusal(() => core.smartBoards.rename('Other', 'best')).sentence).toBe(
      'There is already a smart board named “Best”.',
    );
    expect(
      refusal(() =>
        core.smartBoards.update('Other', {
          match: 'all',
          items: [{ match: 'any', rules: [{ match: 'all', rules: [] }] }],
        }),
      ).sentence,
    ).toBe('A group of rules cannot hold another group: groups go one level deep.');
    // A rename to its own name in another case is no clash.
    expect(core.smartBoards.rename('other', 'OTHER').name).toBe('OTHER');
    expect(core.smartBoards.list().map((entry) => [entry.name, entry.rules])).toEqual([
      ['Best', rated],
      ['OTHER', rated],
    ]);
  });

  it('keep one name per library across two processes, and at most 1,000', async () => {
    const app = await open();
    const cli = await open();
    app.smartBoards.create('Shared', rated);
    expect(refusal(() => cli.smartBoards.create('shared', rated)).sentence).toBe(
      'There is already a smart board named “Shared”.',
    );
    expect(cli.smartBoards.get('SHARED').name).toBe('Shared');
    const db = new DatabaseSync(join(dir, 'data', 'history.sqlite'));
    db.exec('BEGIN IMMEDIATE');
    const insert = db.prepare(
      'INSERT INTO smart_boards (id, name, rules, created_at) VALUES (?, ?, ?, 0)',
    );
    for (let n = 1; n < 1_000; n += 1)
      insert.run(`id-${String(n)}`, `Board ${String(n)}`, JSON.stringify(rated));
    db.exec('COMMIT');
    db.close();
    expect(refusal(() => cli.smartBoards.create('One too many', rated)).sentence).toBe(
      'The library can have at most 1,000 smart boards.',
    );
    expect(app.smartBoards.list()).toHaveLength(1_000);
  });

  it('report a rule naming a board or tag that is gone, and still list the images of the others', async () => {
    const core = await open();
    seed(core);
    core.smartBoards.create('Acme or dogs', {
      match: 'any',
      items: [
        { kind: 'board', board: 'Clients/Acme' },
        { kind: 'tags', mode: 'all', tags: ['dog'] },
      ],
    });
    expect(problems(core.smartBoards.get('acme or dogs'))).toEqual([
      { missing: false, said: [] },
      { missing: false, said: [] },
    ]);
    expect(listed(core, 'Acme or dogs').sort()).toEqual(['a', 'b']);
    core.boards.delete('Clients/Acme');
    await core.triage.apply([{ localId: 'b', index: 0 }], { kind: 'tag', tag: 'dog', add: false });
    expect(problems(core.smartBoards.list()[0]!)).toEqual([
      {
        missing: true,
        said: ['The board “Clients/Acme” no longer exists; this rule matches nothing.'],
      },
      { missing: true, said: ['No image has the tag “dog” any more; this rule matches nothing.'] },
    ]);
    expect(listed(core, 'Acme or dogs')).toEqual([]);
    core.boards.create('clients/acme');
    await core.triage.apply([{ localId: 'b', index: 0 }], {
      kind: 'board',
      path: 'Clients/Acme',
      add: true,
    });
    expect(problems(core.smartBoards.get('Acme or dogs'))[0]).toEqual({ missing: false, said: [] });
    expect(listed(core, 'Acme or dogs')).toEqual(['b']);
  });

  it('follow a board that moves or is renamed, in the same write as the move', async () => {
    const core = await open();
    seed(core);
    core.boards.create('Archive');
    core.smartBoards.create('Acme', {
      match: 'all',
      items: [
        {
          match: 'any',
          rules: [
            { kind: 'board', board: 'clients/acme' },
            { kind: 'flag', flag: 'pick' },
          ],
        },
      ],
    });
    // A board that exists is named by its path as stored.
    expect(JSON.stringify(core.smartBoards.get('Acme').rules)).toContain('"board":"Clients/Acme"');
    core.smartBoards.create('Clients', {
      match: 'all',
      items: [{ kind: 'board', board: 'Clients' }],
    });
    core.boards.move('Clients', 'Archive');
    core.boards.rename('Archive/Clients/Acme', 'Acme Ltd');
    const rules = core.smartBoards.get('Acme').rules;
    expect(rules?.items).toEqual([
      {
        match: 'any',
        rules: [
          { kind: 'board', board: 'Archive/Clients/Acme Ltd' },
          { kind: 'flag', flag: 'pick' },
        ],
      },
    ]);
    expect(core.smartBoards.get('Clients').rules?.items).toEqual([
      { kind: 'board', board: 'Archive/Clients' },
    ]);
    expect(listed(core, 'Acme')).toEqual(['a']);
  });

  it('list a row edited by hand with a sentence, matching nothing, beside the others', async () => {
    const core = await open();
    seed(core);
    core.smartBoards.create('Fine', rated);
    const db = new DatabaseSync(join(dir, 'data', 'history.sqlite'));
    const bad = [
      ['bad-json', 'Broken', '{not json'],
      [
        'bad-rules',
        'Injected',
        JSON.stringify({ match: 'all', items: [{ kind: 'sql', where: '1=1' }] }),
      ],
    ];
    for (const row of bad)
      db.prepare('INSERT INTO smart_boards (id, name, rules, created_at) VALUES (?, ?, ?, 0)').run(
        ...row,
      );
    db.close();
    const entries = core.smartBoards.list();
    expect(
      entries.map((entry) => [
        entry.name,
        entry.rules === null,
        entry.problem && englishText(entry.problem),
      ]),
    ).toEqual([
      [
        'Broken',
        true,
        'The rules of the smart board “Broken” cannot be read; it matches nothing until new rules are saved.',
      ],
      ['Fine', false, undefined],
      [
        'Injected',
        true,
        'The rules of the smart board “Injected” cannot be read; it matches nothing until new rules are saved.',
      ],
    ]);
    expect(listed(core, 'Injected')).toEqual([]);
    expect(listed(core, 'Fine')).toEqual(['a']);
    // Saving new rules mends it.
    core.smartBoards.update('Broken', rated);
    expect(listed(core, 'Broken')).toEqual(['a']);
  });
});
