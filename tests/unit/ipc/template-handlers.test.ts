/**
 * The `templates:` channels over the app's real wiring (main's handlers, core, SQLite history,
 * the demo service on loopback): templates and word lists saved and listed with main's checks
 * (a stale version, a bidi name: main's sentences), a plan showing exactly the prompts a run
 * sends, import and export only through main's own dialogs (an export file that cannot be written
 * answered with the sentence naming it and why), a hard cap passed only with the
 * user's yes in main's dialog, and a page that sends more than the contract allows refused
 * before core sees it.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OverCapQuestion } from '../../../electron/ports/user-prompts';
import { DEMO_ENDPOINT } from '../../../shared/domain/submit-target';
import type { RequestChannel, RequestInput, Result } from '../../../shared/ipc/contract';
import { startWiredApi, type WiredApi, type WiredApiOptions } from '../../support/wired-api';
import { connectService } from '../renderer/dialect-services';
import { TempFolders } from '../../support/temp-folders';

const opened: WiredApi[] = [];
/** The tests' own folders (the files they import and export), removed after each test. */
const folders = new TempFolders();
afterEach(async () => {
  for (const main of opened.splice(0)) await main.close();
  await folders.removeAll();
});

async function wired(options: WiredApiOptions = {}) {
  const main = await startWiredApi(options);
  opened.push(main);
  const invoke = <C extends RequestChannel>(channel: C, input: RequestInput<C>) =>
    main.api.invoke(channel, input) as Promise<Result<unknown>>;
  const ok = async <C extends RequestChannel>(channel: C, input: RequestInput<C>) => {
    const result = await invoke(channel, input);
    if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
    return result.value as never;
  };
  return { main, invoke, ok };
}

const DEMO = { provider: 'pictor', endpoint: DEMO_ENDPOINT } as const;
const BODY = 'a {red|green|blue} {{animal=cat}} in {{place}}';

function runInput(templateId: string, over: Partial<RequestInput<'templates:plan'>> = {}) {
  return {
    templateId,
    values: { animal: 'heron', place: 'the rain' },
    prompt: '',
    mode: { kind: 'combinatorial' as const },
    target: DEMO,
    request: { size: '1024x1024' },
    count: 2,
    ...over,
  };
}

describe('templates over IPC', () => {
  it('saves, lists, edits by version and deletes; a stale version and a bidi name get sentences', async () => {
    const { ok, invoke } = await wired();
    const made: { id: string; version: number } = await ok('templates:save', {
      name: 'Colours',
      body: BODY,
      negative: 'blurry',
    });
    const edited: { version: number } = await ok('templates:save', {
      id: made.id,
      version: made.version,
      name: 'Colours',
      body: `${BODY}, soft light`,
    });
    expect(edited.version).toBe(made.version + 1);
    const stale = await invoke('templates:save', {
      id: made.id,
      version: made.version,
      name: 'Colours',
      body: BODY,
    });
    expect(stale.ok).toBe(false);
    if (!stale.ok) expect(stale.error.sentence?.key).toMatch(/^error\.templateStore\./);
    const bidi = await invoke('templates:save', { name: 'evil\u202Egpj', body: BODY });
    expect(bidi.ok).toBe(false);
    if (!bidi.ok) expect(bidi.error.sentence?.key).toBe('error.templateFile.nameCharacter');
    await ok('templates:wordList:save', { name: 'animals', words: ['cat', ' dog ', ''] });
    const listed: { templates: { body: string }[]; wordLists: unknown[] } = await ok(
      'templates:list',
      undefined,
    );
    expect(listed.templates.map((one) => one.body)).toEqual([`${BODY}, soft light`]);
    expect(listed.wordLists).toEqual([{ name: 'animals', words: ['cat', 'dog'] }]);
    await ok('templates:delete', { id: made.id });
    await ok('templates:wordList:delete', { name: 'animals' });
    expect(await ok('templates:list', undefined)).toEqual({
      templates: [],
      problems: [],
      wordLists: [],
    });
  });

  it('plans exactly the prompts a run sends, and the run answers the new tasks', async () => {
    const { main, ok } = await wired();
    const { id }: { id: string } = await ok('templates:save', { name: 'Colours', body: BODY });
    const plan: { prompts: string[]; tasks: number; estimate: { perPrompt: unknown[] } } = await ok(
      'templates:plan',
      runInput(id),
    );
    expect(plan.prompts).toEqual([
      'a red heron in the rain',
      'a green heron in the rain',
      'a blue heron in the rain',
    ]);
    expect(plan.tasks).toBe(6);
    expect(plan.estimate.perPrompt).toEqual([
      { source: 'free' },
      { source: 'free' },
      { source: 'free' },
    ]);
    const items: { record: { localId: string; request: { prompt: string } } }[] = await ok(
      'templates:run',
      runInput(id),
    );
    expect(items).toHaveLength(6);
    const stored = items.map((item) => main.runtime.core.history.get(item.record.localId));
    expect(stored.map((record) => record?.request.prompt).sort()).toEqual(
      [...plan.prompts, ...plan.prompts].sort(),
    );
    expect(stored[0]?.template).toMatchObject({ id, values: { animal: 'heron' } });
  });

  it.each([
    ['an unknown key', { extra: 1 }],
    ['a value past its length', { values: { place: 'x'.repeat(2_001) } }],
    ['a __proto__ value', { values: JSON.parse('{"__proto__": "x"}') as Record<string, string> }],
    [
      'too many values',
      { values: Object.fromEntries(Array.from({ length: 65 }, (_, n) => [`v${String(n)}`, 'x'])) },
    ],
    ['a random count past 100', { mode: { kind: 'random', count: 101, seed: 1 } }],
    ['a negative seed', { mode: { kind: 'random', count: 3, seed: -1 } }],
    ['prompts sent by the page', { prompts: ['sent anyway'] }],
    ['a count past the form’s', { count: 1_000 }],
  ])('refuses %s before core sees it', async (_name, over) => {
    const { main, invoke, ok } = await wired();
    const { id }: { id: string } = await ok('templates:save', { name: 'Colours', body: BODY });
    for (const channel of ['templates:plan', 'templates:run'] as const) {
      const result = await invoke(channel, { ...runInput(id), ...over } as never);
      expect(result).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    }
    expect(main.runtime.core.history.list({}).items).toHaveLength(0);
  });

  it('says over 100 prompts with main’s sentence, and a template error with its line and column', async () => {
    const { invoke, ok } = await wired();
    const many: { id: string } = await ok('templates:save', {
      name: 'Many',
      body: '{a|b|c|d|e|f|g|h|i|j|k} {0|1|2|3|4|5|6|7|8|9}',
    });
    const tooMany = await invoke('templates:plan', runInput(many.id, { count: 1 }));
    expect(tooMany.ok).toBe(false);
    if (!tooMany.ok) expect(tooMany.error.sentence?.params).toMatchObject({ count: '110' });
    const broken = await invoke('templates:save', { name: 'Broken', body: 'a {red|blue' });
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.error.sentence?.params).toMatchObject({ line: 1 });
  });

  it('imports and exports only through main’s own dialogs; cancelled, nothing changes', async () => {
    const { main, ok } = await wired();
    const dir = await folders.make('templates');
    const styles = join(dir, 'styles.csv');
    await writeFile(styles, 'name,prompt,negative_prompt\nNoir,"{prompt}, film noir",colour\n');
    expect(await ok('templates:import', { format: 'a1111' })).toEqual({ summary: null });
    main.env.PICTOR_E2E_OPEN_TEMPLATES = styles;
    const imported: { summary: { imported: number } } = await ok('templates:import', {
      format: 'a1111',
    });
    expect(imported.summary.imported).toBe(1);
    const out = join(dir, 'out.json');
    main.env.PICTOR_E2E_SAVE_TEMPLATES = out;
    const exported: { summary: { count: number } } = await ok('templates:export', {
      format: 'pictor',
    });
    expect(exported.summary.count).toBe(1);
    expect(await readFile(out, 'utf8')).toContain('film noir');
  });
});

describe('templates:export to a file that cannot be written', () => {
  it('answers with the sentence naming the file and why, not “something went wrong”', async () => {
    const { main, invoke, ok } = await wired();
    await ok('templates:save', { name: 'Noir', body: '{{prompt}}, film noir' });
    const dir = await folders.make('templates');
    const kept = join(dir, 'styles.json');
    await writeFile(kept, 'the styles of last week');
    for (const [file, problem, code] of [
      [join(dir, 'gone', 'styles.json'), 'noFolder', 'ENOENT'],
      [join(kept, 'styles.json'), 'notFolder', 'ENOTDIR'],
      [join(dir, `${'a'.repeat(252)}.json`), 'nameTooLong', 'ENAMETOOLONG'],
    ] as const) {
      // Main's save dialog answers this file.
      main.env.PICTOR_E2E_SAVE_TEMPLATES = file;
      const refused = await invoke('templates:export', { format: 'pictor' });
      expect(refused).toMatchObject({
        ok: false,
        error: {
          code: 'failed',
          sentence: { key: 'error.library.fileNotSaved', params: { file, problem, code } },
        },
      });
      if (!refused.ok) expect(refused.error.message).toContain(`save the file ${file} because`);
    }
    expect(await readdir(dir)).toEqual(['styles.json']);
    expect(await readFile(kept, 'utf8')).toBe('the styles of last week');
  });
});

describe('a template run over a hard cap', () => {
  const HARD = {
    period: 'day',
    unit: 'USD',
    provider: null,
    kind: 'hard',
    micros: 50_000,
  } as const;

  it.each([false, true])('asks main’s dialog; the answer %s decides', async (answer) => {
    const asked: OverCapQuestion[] = [];
    const overCapPrompts = {
      confirmOverHardCap: async (question: OverCapQuestion) => {
        asked.push(question);
        return answer;
      },
    };
    const { main, invoke, ok } = await wired({ overCapPrompts });
    const service = await connectService(main, 'pictor');
    const target = { provider: 'pictor', endpoint: service.url } as const;
    await ok('costs:setPrice', {
      provider: 'pictor',
      model: '',
      unit: 'USD',
      basis: 'image',
      micros: 30_000,
    });
    await ok('costs:setCap', HARD);
    const { id }: { id: string } = await ok('templates:save', { name: 'Colours', body: BODY });
    const plan: { hardCap: { refusal: { key: string } } | null } = await ok(
      'templates:plan',
      runInput(id, { target }),
    );
    expect(plan.hardCap?.refusal.key).toBe('error.costs.hardCap');
    const run = await invoke('templates:run', runInput(id, { target }));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ caps: [HARD], tasks: 6 });
    expect(run.ok).toBe(answer);
    expect(main.runtime.core.history.list({}).items).toHaveLength(answer ? 6 : 0);
  });
});
