/**
 * What README.md and docs/ say of the `pictor` command is what its parser and tables hold: every
 * command line they show (`pictor <command> …`, `npm run -s cli -- <command> …`) names a command
 * of the table and only options that command takes, the README's list of exit codes is the
 * CLI's table, the commands `--provider demo` works with are the ones the CLI lets it, and the
 * providers `--provider ID` names, with their own addresses, are the providers' table. A
 * renamed option, a new exit code or a command that learns the demo then cannot leave the pages
 * saying the old thing.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../electron/cli/cli-report';
import { COMMANDS, COMMAND_NAMES, type CommandName } from '../../../electron/cli/command-table';
import { DEMO_COMMANDS } from '../../../electron/cli/demo-choice';
import { EXIT_OUTPUT_CLOSED } from '../../../electron/cli/main';
import { PROVIDERS, PROVIDER_IDS } from '../../../shared/domain/providers';
import { REPO_ROOT } from '../../support/source-files';

/** README.md and every page of docs/. */
function pages(): { file: string; text: string }[] {
  const docs = readdirSync(join(REPO_ROOT, 'docs')).filter((name) => name.endsWith('.md'));
  return ['README.md', ...docs.map((name) => `docs/${name}`)].map((file) => ({
    file,
    text: readFileSync(join(REPO_ROOT, file), 'utf8'),
  }));
}

/** The CLI as a page runs it, then the command's name and the rest of its line. */
const COMMAND_LINE = /(?:\bpictor|npm run -s cli --)\s+([a-z][a-z-]*)([^`\n#]*)/g;
/** An option word: `--name` or `-x`, not inside another word, its `=value` left out. */
const OPTION = /(?<![\w-])(--?[a-zA-Z][\w-]*)/g;
/** What every command takes besides its own options (cli-dispatch.ts). */
const EVERYWHERE = new Set(['--help', '-h']);

interface Shown {
  readonly at: string;
  readonly name: string;
  readonly options: readonly string[];
}

/** The command lines `text` shows: options after a lone `--` are a prompt's words. */
function commandLinesIn(file: string, text: string): Shown[] {
  return text.split('\n').flatMap((line, index) =>
    [...line.matchAll(COMMAND_LINE)].map(([, name, rest]) => ({
      at: `${file}:${index + 1}`,
      name: name!,
      options: [...(rest!.split(/\s--(?:\s|$)/)[0] ?? '').matchAll(OPTION)].map(
        ([, option]) => option!,
      ),
    })),
  );
}

/** Each command's options as typed (`--name`, `-x`). */
let taken: ReadonlyMap<CommandName, ReadonlySet<string>>;

beforeAll(async () => {
  const loaded = await Promise.all(
    COMMAND_NAMES.map(async (name) => {
      const { options } = await COMMANDS[name]();
      const words = Object.entries(options).flatMap(([long, option]) => [
        `--${long}`,
        ...(option.short ? [`-${option.short}`] : []),
      ]);
      return [name, new Set(words)] as const;
    }),
  );
  taken = new Map(loaded);
});

/** What is wrong with the command lines shown: an unknown command, or an option it lacks. */
function untrue(shown: readonly Shown[]): string[] {
  return shown.flatMap(({ at, name, options }) => {
    if (name === 'help') return [];
    const own = taken.get(name as CommandName);
    if (!own) return [`${at}: no command "${name}"`];
    return options
      .filter((option) => !own.has(option) && !EVERYWHERE.has(option))
      .map((option) => `${at}: ${name} takes no ${option}`);
  });
}

describe('command lines the docs show', () => {
  it('name commands of the table and only options each takes', () => {
    const shown = pages().flatMap(({ file, text }) => commandLinesIn(file, text));
    expect(shown.length).toBeGreaterThan(60);
    expect(untrue(shown)).toEqual([]);
  });

  it('are read as written, and an untrue one is caught', () => {
    const shown = commandLinesIn(
      'page.md',
      [
        '`pictor list --limit 5 --promt x` and `npm run -s cli -- costs --csv > ledger.csv`',
        'npm run -s cli -- generate --prompt x -- --not-an-option   # a comment --neither',
        '`pictor frobnicate --json`',
      ].join('\n'),
    );
    expect(shown).toEqual([
      { at: 'page.md:1', name: 'list', options: ['--limit', '--promt'] },
      { at: 'page.md:1', name: 'costs', options: ['--csv'] },
      { at: 'page.md:2', name: 'generate', options: ['--prompt'] },
      { at: 'page.md:3', name: 'frobnicate', options: ['--json'] },
    ]);
    expect(untrue(shown)).toEqual([
      'page.md:1: list takes no --promt',
      'page.md:3: no command "frobnicate"',
    ]);
  });
});

/** The README's bullet "Exit codes, …": the codes it gives a meaning (`` `N` …``). */
function exitCodesIn(readme: string): number[] {
  const start = readme.indexOf('- Exit codes, ');
  const end = readme.indexOf('\n- ', start + 1);
  if (start === -1 || end === -1) return [];
  return [...readme.slice(start, end).matchAll(/`(\d+)` /g)].map(([, code]) => Number(code));
}

/** The README's sentence naming the commands `--provider demo` works with. */
function demoCommandsIn(readme: string): string[] {
  const sentence = /`--provider demo` works with ([^.;]+)/.exec(readme.replace(/\s+/g, ' '));
  return [...(sentence?.[1] ?? '').matchAll(/`([a-z-]+)`/g)].map(([, name]) => name!);
}

describe("the README's tables of the CLI", () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

  it('gives a meaning to exactly the exit codes the CLI has', () => {
    const codes = [...new Set([...Object.values(EXIT), EXIT_OUTPUT_CLOSED])].sort((a, b) => a - b);
    expect(exitCodesIn(readme)).toEqual(codes);
    expect(exitCodesIn('- Exit codes, all: `0` fine; `9` odd.\n- next')).toEqual([0, 9]);
  });

  it('names exactly the commands --provider demo works with', () => {
    expect(demoCommandsIn(readme).sort()).toEqual([...DEMO_COMMANDS].sort());
    expect(demoCommandsIn('`--provider demo` works with `generate` and\n`list`; it')).toEqual([
      'generate',
      'list',
    ]);
  });

  it('names every provider --provider takes, each at its own address', () => {
    const text = readme.replace(/\s+/g, ' ');
    const kinds = /`--provider ID` \([^)]*\) names the kind of service: (.*?)\. It decides/.exec(
      text,
    );
    const named = [...(kinds?.[1] ?? '').matchAll(/`([a-z]+)`(?= \(|,| or|$)/g)].map(
      ([, id]) => id!,
    );
    const local = /`--provider (\w+)` is a local/.exec(text)?.[1];
    expect([...named, local].sort()).toEqual([...PROVIDER_IDS].sort());
    const own = /reached at its own address \(([^)]*)\)/.exec(text)?.[1] ?? '';
    const addresses = [...own.matchAll(/`([^`]+)`/g)].map(([, address]) => address!);
    const remote = PROVIDER_IDS.map((id) => PROVIDERS[id].defaultBaseUrl).filter(
      (address): address is string => address !== null && address.startsWith('https:'),
    );
    expect(addresses.sort()).toEqual(remote.sort());
    expect(text).toContain(`a local ComfyUI (\`${PROVIDERS.comfyui.defaultBaseUrl}\``);
  });
});
