/**
 * docs/DEMO-SERVICE.md's tables are the demo service's interfaces: the table of flags lists
 * exactly the flags its parser takes (electron/demo-service/cli-args.ts), and the table of the
 * programmatic API exactly the options it resolves (options.ts); each default either gives as a
 * plain value is what the service runs with when it is left out. A flag or an option added,
 * renamed or given another default cannot leave the page saying the old thing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { USAGE, parseCliArgs } from '../../../electron/demo-service/cli-args';
import { resolveOptions, type ResolvedOptions } from '../../../electron/demo-service/options';
import { REPO_ROOT } from '../../support/source-files';

interface Row {
  readonly flag: string;
  readonly fallback: string;
}

/** The rows of the page's table whose header is `| Flag | Meaning | Default |`. */
function flagRows(page: string): Row[] {
  const lines = page.split('\n');
  const header = lines.findIndex((line) => /^\| Flag \| Meaning \| Default \|/.test(line));
  if (header === -1) return [];
  const rows: Row[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split(' | ');
    const flag = /^\| `(--[a-z-]+)/.exec(cells[0] ?? '')?.[1];
    const fallback = (cells.at(-1) ?? '').replace(/\s*\|\s*$/, '').trim();
    if (flag) rows.push({ flag, fallback });
  }
  return rows;
}

/** The flags the parser's help lists. */
function usageFlags(): string[] {
  return [...USAGE.matchAll(/^ {2}(--[a-z-]+)/gm)].map(([, flag]) => flag!);
}

/** Whether the parser knows `flag` (an unknown one is refused as "Unknown option"). */
function parserTakes(flag: string): boolean {
  try {
    parseCliArgs([flag]);
    return true;
  } catch (error) {
    return !(error instanceof Error && error.message.startsWith('Unknown option'));
  }
}

/** What each flag whose default is a value runs with when it is left out, as the page writes it. */
function defaultsOf(resolved: ResolvedOptions): Readonly<Record<string, string>> {
  return {
    '--port': String(resolved.port),
    '--host': resolved.host,
    '--duration': `${resolved.durationMs.min}-${resolved.durationMs.max}`,
    '--failure-rate': String(resolved.failureRate),
    '--images-per-task': String(resolved.imagesPerTask),
    '--max-image-side': String(resolved.maxImageSide),
    '--seed': String(resolved.seed),
    '--dialect': resolved.dialect,
    '--rate-limit': String(resolved.rateLimit),
    '--unknown-status': String(resolved.unknownStatusPolls),
    '--max-active-tasks': String(resolved.maxActiveTasks),
  };
}

/** Rows whose default (its first code span) is not what the service runs with. */
function wrongDefaults(rows: readonly Row[], defaults: Readonly<Record<string, string>>): string[] {
  return rows
    .filter(({ flag }) => flag in defaults)
    .filter(({ flag, fallback }) => /^`([^`]*)`/.exec(fallback)?.[1] !== defaults[flag])
    .map(
      ({ flag, fallback }) => `${flag}: the page says ${fallback}, the service ${defaults[flag]}`,
    );
}

/** The rows of the programmatic API's table (`| Option | Meaning | Default |`), one per option. */
function optionRows(page: string): Row[] {
  const lines = page.split('\n');
  const header = lines.findIndex((line) => /^\| Option \| Meaning \| Default \|/.test(line));
  if (header === -1) return [];
  const rows: Row[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split(' | ');
    const names = [...(cells[0] ?? '').matchAll(/`(\w+)`/g)].map(([, name]) => name!);
    const values = [...(cells.at(-1) ?? '').matchAll(/`([^`]*)`/g)].map(([, value]) => value!);
    names.forEach((flag, index) =>
      rows.push({ flag, fallback: values.length === names.length ? values[index]! : '' }),
    );
  }
  return rows;
}

/** How the page writes a plain default (a number, a boolean, null, a quoted string). */
function written(value: unknown): string | undefined {
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
    return String(value);
  }
  return undefined;
}

describe("DEMO-SERVICE.md's table of the programmatic API", () => {
  const rows = optionRows(readFileSync(join(REPO_ROOT, 'docs/DEMO-SERVICE.md'), 'utf8'));
  const resolved = resolveOptions() as unknown as Record<string, unknown>;

  it('lists exactly the options the service resolves', () => {
    expect(rows.map(({ flag }) => flag).sort()).toEqual(Object.keys(resolved).sort());
  });

  it('gives each plain default the service runs with', () => {
    const plain = rows.filter(({ flag }) => written(resolved[flag]) !== undefined);
    expect(plain.length).toBeGreaterThan(12);
    expect(
      plain
        .filter(({ flag, fallback }) => fallback !== written(resolved[flag]))
        .map(({ flag, fallback }) => `${flag}: ${fallback}`),
    ).toEqual([]);
    expect(
      optionRows("| Option | Meaning | Default |\n|---|\n| `host`, `port` | x | `'h'`, `0` |"),
    ).toEqual([
      { flag: 'host', fallback: "'h'" },
      { flag: 'port', fallback: '0' },
    ]);
  });
});

describe("DEMO-SERVICE.md's table of flags", () => {
  const rows = flagRows(readFileSync(join(REPO_ROOT, 'docs/DEMO-SERVICE.md'), 'utf8'));

  it('lists exactly the flags the parser takes', () => {
    const flags = rows.map(({ flag }) => flag);
    expect(flags.length).toBeGreaterThan(15);
    expect([...flags].sort()).toEqual([...usageFlags()].sort());
    expect(flags.filter((flag) => !parserTakes(flag))).toEqual([]);
    expect(parserTakes('--no-such-flag')).toBe(false);
  });

  it('gives each value default the service runs with', () => {
    const defaults = defaultsOf(resolveOptions());
    expect(rows.filter(({ flag }) => flag in defaults)).toHaveLength(Object.keys(defaults).length);
    expect(wrongDefaults(rows, defaults)).toEqual([]);
    expect(
      wrongDefaults(
        [
          { flag: '--seed', fallback: '`7`' },
          { flag: '--port', fallback: '`0` (a free one)' },
        ],
        defaults,
      ),
    ).toEqual(['--seed: the page says `7`, the service 1']);
  });
});
