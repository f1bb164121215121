/**
 * Where README.md and docs/ send the reader in Settings is where things are: a path
 * `Settings › Section › Field` starts with a section the Settings screen has
 * (renderer/features/settings/settings-view.tsx, by its English title), and each step after it
 * starts with words the window shows (the English catalogue, or a service's name). The pages once
 * said "Settings › Never upload inputs" and "Settings → Language" for two switches that sit in
 * "Behaviour and appearance". One separator, `›`, as the pages write every other path.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../../shared/domain/providers';
import { REPO_ROOT } from '../../support/source-files';

/** README.md and every page of docs/, its lines joined where they wrap. */
function pages(): { file: string; text: string }[] {
  const docs = readdirSync(join(REPO_ROOT, 'docs')).filter((name) => name.endsWith('.md'));
  return ['README.md', ...docs.map((name) => `docs/${name}`)].map((file) => ({
    file,
    text: readFileSync(join(REPO_ROOT, file), 'utf8').replace(/\s+/g, ' '),
  }));
}

/** Every English string of the window. */
let english: ReadonlyMap<string, string>;

beforeAll(async () => {
  const folder = join(REPO_ROOT, 'renderer/i18n/en');
  const modules = await Promise.all(
    readdirSync(folder)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => import(join(folder, name)) as Promise<Record<string, object>>),
  );
  english = new Map(
    modules.flatMap((module) =>
      Object.values(module).flatMap((strings) => Object.entries(strings) as [string, string][]),
    ),
  );
});

/** The English titles of the Settings screen's sections, in its order. */
function sectionTitles(): string[] {
  const view = readFileSync(
    join(REPO_ROOT, 'renderer/features/settings/settings-view.tsx'),
    'utf8',
  );
  const keys = [...view.matchAll(/<Section[^>]*?\stitle="([\w.]+)"/g)].map(([, key]) => key!);
  return [PROVIDERS.pictor.label, ...keys.map((key) => english.get(key) ?? `(no ${key})`)];
}

/** The paths into Settings a page names, each as its steps, with the separator used. */
function settingsPaths(text: string): { path: string; steps: string[]; arrow: boolean }[] {
  return [...text.matchAll(/\bSettings ([›→] .*?)(?=\*\*|[),;:]|\. |$)/g)].map(([, rest]) => {
    const steps = rest!.split(/ ?[›→] /).slice(1);
    return { path: `Settings ${rest!.trimEnd()}`, steps, arrow: rest!.includes('→') };
  });
}

/** Whether `text` starts with `words` as whole words. */
function startsWith(text: string, words: string): boolean {
  return text.startsWith(words) && !/^[\p{L}\d]/u.test(text.slice(words.length));
}

/** What is untrue of a path: the separator, its section, a step the window does not show. */
function untrue(
  path: { path: string; steps: string[]; arrow: boolean },
  sections: readonly string[],
  labels: readonly string[],
): string[] {
  const [section = '', ...rest] = path.steps;
  return [
    ...(path.arrow ? [`${path.path}: written with →, not ›`] : []),
    ...(sections.some((title) => startsWith(section, title))
      ? []
      : [`${path.path}: Settings has no section "${section}"`]),
    ...rest
      .filter((step) => !labels.some((label) => startsWith(step, label)))
      .map((step) => `${path.path}: "${step}" is not shown in the window`),
  ];
}

describe('paths into Settings the docs name', () => {
  it('start with a section of the screen and go through what it shows', () => {
    const sections = sectionTitles();
    expect(sections).toContain('Behaviour and appearance');
    const labels = [
      ...[...english.values()].map((text) => text.replace(/…$/, '')),
      ...Object.values(PROVIDERS).map(({ label }) => label),
    ].filter((label) => label.length >= 3 && !label.includes('{'));
    const named = pages().flatMap(({ file, text }) =>
      settingsPaths(text).map((path) => ({ file, path })),
    );
    expect(named.length).toBeGreaterThan(8);
    expect(
      named.flatMap(({ file, path }) =>
        untrue(path, sections, labels).map((why) => `${file}: ${why}`),
      ),
    ).toEqual([]);
  });

  it('are read as written, and an untrue one is caught', () => {
    const paths = settingsPaths(
      'in **Settings › Never upload inputs** and Settings → About. Settings › Costs with a form',
    );
    expect(paths.map(({ steps }) => steps)).toEqual([
      ['Never upload inputs'],
      ['About'],
      ['Costs with a form'],
    ]);
    const sections = ['Costs', 'About', 'Behaviour and appearance'];
    expect(paths.flatMap((path) => untrue(path, sections, ['Never upload inputs']))).toEqual([
      'Settings › Never upload inputs: Settings has no section "Never upload inputs"',
      'Settings → About: written with →, not ›',
    ]);
  });
});
