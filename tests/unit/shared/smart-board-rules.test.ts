/**
 * A smart board's rules (shared/domain/smart-board.ts) from anywhere: at most 20 rules in all
 * (groups' rules counted), groups one level deep, each kind of rule with its values checked (a
 * tag or board path by the rules of names, a range with a bound and in order, no unknown field
 * or kind), each refusal one sentence; the stored form trimmed and NFC, a rule's repeated tags
 * once; the report of rules naming a board or tag that is gone; a smart board's name; "Save as
 * smart board" from a filter.
 */
import { describe, expect, it } from 'vitest';
import {
  checkSmartRules,
  reportRules,
  rulesFromFilter,
  type RuleReport,
  type SmartRule,
} from '../../../shared/domain/smart-board';
import { checkSmartBoardName } from '../../../shared/domain/triage';
import { englishText } from '../../../shared/i18n/sentence';

const rating = (value: number): SmartRule => ({ kind: 'rating', op: '>=', value });
const problem = (raw: unknown): string | null => {
  const checked = checkSmartRules(raw);
  return checked.ok ? null : englishText(checked.problem);
};

/** One of every kind of rule, valid. */
const EVERY_KIND: SmartRule[] = [
  { kind: 'prompt', words: 'lighthouse dusk' },
  { kind: 'service', provider: 'fal' },
  { kind: 'model', model: 'demo-1' },
  { kind: 'date', from: 1_700_000_000_000, to: 1_800_000_000_000 },
  { kind: 'rating', op: '=', value: 0 },
  { kind: 'flag', flag: 'reject' },
  { kind: 'tags', mode: 'none', tags: ['cat'] },
  { kind: 'board', board: 'Clients/Acme' },
  { kind: 'unfiled' },
  { kind: 'cost', unit: 'USD', min: 10_000, max: 50_000 },
  { kind: 'credentials', verdict: 'trusted' },
  { kind: 'size', measure: 'width', min: 1024 },
];

describe('smart board rules', () => {
  it('take every kind of rule, at the top and in groups of all or any', () => {
    const rules = {
      match: 'any',
      items: [
        { match: 'all', rules: EVERY_KIND.slice(0, 6) },
        { match: 'any', rules: EVERY_KIND.slice(6) },
      ],
    };
    expect(checkSmartRules(rules)).toEqual({ ok: true, rules });
  });

  it('take 20 rules and refuse 21, groups counted, with the count in the sentence', () => {
    const twenty = {
      match: 'all',
      items: [...Array(10).fill(rating(1)), { match: 'any', rules: Array(10).fill(rating(2)) }],
    };
    expect(checkSmartRules(twenty).ok).toBe(true);
    const more = { ...twenty, items: [...twenty.items, rating(3)] };
    expect(problem(more)).toBe('A smart board can have at most 20 rules; these are 21.');
    expect(problem({ match: 'all', items: Array(500).fill(rating(1)) })).toBe(
      'A smart board can have at most 20 rules; these are 500.',
    );
  });

  it('refuse a group inside a group, and rules nested at the top, with a sentence', () => {
    const nested = {
      match: 'all',
      items: [{ match: 'any', rules: [rating(1), { match: 'all', rules: [rating(2)] }] }],
    };
    const sentence = 'A group of rules cannot hold another group: groups go one level deep.';
    expect(problem(nested)).toBe(sentence);
    expect(problem({ match: 'all', items: [{ match: 'any', items: [rating(1)] }] })).toBe(sentence);
  });

  it('refuse no rule at all, and an empty group', () => {
    const sentence = 'A smart board needs at least one rule, and each group of rules at least one.';
    expect(problem({ match: 'all', items: [] })).toBe(sentence);
    expect(problem({ match: 'all', items: [rating(1), { match: 'any', rules: [] }] })).toBe(
      sentence,
    );
  });

  it.each([
    ['not an object', 'rules'],
    ['a match that is neither all nor any', { match: 'some', items: [rating(1)] }],
    ['an extra field at the top', { match: 'all', items: [rating(1)], sql: '1=1' }],
    ['no items', { match: 'all' }],
  ])('refuse %s as rules Pictor cannot read', (_, raw) => {
    expect(problem(raw)).toBe('These smart board rules are not ones Pictor can read.');
  });

  it.each([
    ['an unknown kind', { kind: 'sql', where: '1=1' }],
    ['an extra field', { kind: 'flag', flag: 'pick', or: '1=1' }],
    ['a rating of 6', { kind: 'rating', op: '>=', value: 6 }],
    ['a rating operator outside =, >=, <=', { kind: 'rating', op: '<>', value: 3 }],
    ['an unknown service', { kind: 'service', provider: 'evil' }],
    ['an unknown verdict', { kind: 'credentials', verdict: 'maybe' }],
    ['an unknown cost unit', { kind: 'cost', unit: 'DOGE', min: 1 }],
    ['a negative size', { kind: 'size', measure: 'bytes', min: -1 }],
    ['a fractional cost', { kind: 'cost', unit: 'USD', min: 0.5 }],
    ['empty prompt words', { kind: 'prompt', words: '   ' }],
    ['a tags rule with no tag', { kind: 'tags', mode: 'any', tags: [] }],
    [
      '65 tags',
      { kind: 'tags', mode: 'any', tags: Array.from({ length: 65 }, (_, n) => `t${String(n)}`) },
    ],
  ])('refuse %s, naming the rule by its number', (_, bad) => {
    expect(
      problem({ match: 'all', items: [rating(1), { match: 'any', rules: [rating(2), bad] }] }),
    ).toBe('Rule 3 of the smart board is not one Pictor can read.');
  });

  it('refuse a range with no bound or upside down', () => {
    const sentence = (n: number) =>
      `Rule ${String(n)} of the smart board needs a lowest or a highest value, and the lowest cannot be above the highest.`;
    expect(problem({ match: 'all', items: [{ kind: 'size', measure: 'height' }] })).toBe(
      sentence(1),
    );
    expect(
      problem({ match: 'all', items: [rating(1), { kind: 'cost', unit: 'EUR', min: 9, max: 3 }] }),
    ).toBe(sentence(2));
    expect(problem({ match: 'all', items: [{ kind: 'date', from: 20, to: 10 }] })).toBe(
      sentence(1),
    );
  });

  it('check tags and board paths by the rules of names, each with its sentence', () => {
    const tags = (list: string[]) => ({
      match: 'all',
      items: [{ kind: 'tags', mode: 'all', tags: list }],
    });
    expect(problem(tags(['ok', 'evil\u202Egnp.exe']))).toBe(
      'A tag cannot contain the character U+202E.',
    );
    expect(problem(tags(['x'.repeat(65)]))).toBe('A tag can have at most 64 characters.');
    const board = (path: string) => ({ match: 'all', items: [{ kind: 'board', board: path }] });
    expect(problem(board('A/B/C/D/E/F'))).toBe('Boards can be nested at most 5 levels deep.');
    expect(problem(board('Clients//Acme'))).toBe('A board name cannot be empty.');
  });

  it('store names trimmed and NFC, words and models trimmed, repeated tags once', () => {
    const checked = checkSmartRules({
      match: 'all',
      items: [
        { kind: 'tags', mode: 'any', tags: [' Cafe\u0301 ', 'CAFÉ', 'cat'] },
        { kind: 'board', board: ' Clients / Acme ' },
        { kind: 'prompt', words: '  light house ' },
        { kind: 'model', model: ' demo-1 ' },
      ],
    });
    expect(checked).toEqual({
      ok: true,
      rules: {
        match: 'all',
        items: [
          { kind: 'tags', mode: 'any', tags: ['Café', 'cat'] },
          { kind: 'board', board: 'Clients/Acme' },
          { kind: 'prompt', words: 'light house' },
          { kind: 'model', model: 'demo-1' },
        ],
      },
    });
  });
});

describe('the report of rules naming what is gone', () => {
  const names = { board: (path: string) => path === 'Kept', tag: (tag: string) => tag === 'cat' };

  it('marks a gone board, and a gone tag as matching nothing or as no longer tested', () => {
    const report = reportRules(
      {
        match: 'any',
        items: [
          { kind: 'board', board: 'Clients/Acme' },
          { kind: 'board', board: 'Kept' },
          {
            match: 'all',
            rules: [
              { kind: 'tags', mode: 'all', tags: ['cat', 'dog'] },
              { kind: 'tags', mode: 'any', tags: ['cat', 'dog'] },
              { kind: 'tags', mode: 'any', tags: ['dog'] },
              { kind: 'tags', mode: 'none', tags: ['dog'] },
              rating(4),
            ],
          },
        ],
      },
      names,
    );
    const said = (entry: RuleReport) => [entry.missing, entry.problems.map(englishText)];
    const [gone, kept, group] = report.items;
    if (!gone || !kept || !group || 'rules' in gone || 'rules' in kept || !('rules' in group)) {
      throw new Error('the report does not mirror the rules');
    }
    expect(said(gone)).toEqual([
      true,
      ['The board “Clients/Acme” no longer exists; this rule matches nothing.'],
    ]);
    expect(said(kept)).toEqual([false, []]);
    const nothing = 'No image has the tag “dog” any more; this rule matches nothing.';
    const ignored = 'No image has the tag “dog” any more, so this rule no longer tests it.';
    expect(group.rules.map(said)).toEqual([
      [true, [nothing]],
      [true, [ignored]],
      [true, [nothing]],
      [true, [ignored]],
      [false, []],
    ]);
  });
});

describe('smart board names', () => {
  it('are a board name, where a / is just a character', () => {
    expect(checkSmartBoardName('  Best of 2026/Q1 ')).toMatchObject({
      ok: true,
      name: 'Best of 2026/Q1',
    });
    const refused = (raw: string) => {
      const checked = checkSmartBoardName(raw);
      return checked.ok ? null : englishText(checked.problem);
    };
    expect(refused('   ')).toBe('A board name cannot be empty.');
    expect(refused('x'.repeat(101))).toBe('A board name can have at most 100 characters.');
    expect(refused('Picks\u202E')).toBe('A board name cannot contain the character U+202E.');
    expect(refused('a\u0000b')).toBe('A board name cannot contain the character U+0000.');
  });
});

describe('save as smart board', () => {
  it('makes one rule per filter set, joined by the match asked for', () => {
    const rules = rulesFromFilter(
      {
        search: 'lighthouse',
        provider: 'fal',
        model: 'demo-1',
        from: 1,
        contentCredentials: false,
        rating: { op: '>=', value: 4 },
        flag: 'pick',
        tags: { mode: 'all', keys: ['cat'] },
        board: 'Kept',
        unfiled: true,
      },
      'any',
    );
    expect(rules).toEqual({
      match: 'any',
      items: [
        { kind: 'prompt', words: 'lighthouse' },
        { kind: 'service', service: 'fal' },
        { kind: 'model', model: 'demo-1' },
        { kind: 'date', from: 1 },
        { kind: 'rating', op: '>=', value: 4 },
        { kind: 'flag', flag: 'pick' },
        { kind: 'tags', mode: 'all', tags: ['cat'] },
        { kind: 'board', board: 'Kept' },
        { kind: 'unfiled' },
        { kind: 'credentials', verdict: 'absent' },
      ],
    });
    expect(checkSmartRules(rules).ok).toBe(true);
    expect(rulesFromFilter({ search: '  ' }, 'all')).toBeNull();
  });
});
