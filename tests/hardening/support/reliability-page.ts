/**
 * The figures part of docs/RELIABILITY.md, made from recorded figures only. The hardening suites
 * record each row as JSON (reliability-record.ts); `npm run reliability` keeps the latest record
 * of every row in docs/reliability/figures.json and writes the page's region between the two
 * markers below from that file, and nothing else of the page: the hand-written parts (the
 * introduction, the threat model, the notes) are kept as they are.
 * tests/unit/docs/reliability-page.test.ts fails when the page and the file disagree.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { NOT_MEASURED } from './reliability-record';
import { REPO_ROOT } from '../../support/source-files';

export const RELIABILITY_PAGE = join(REPO_ROOT, 'docs', 'RELIABILITY.md');
export const FIGURES_FILE = join(REPO_ROOT, 'docs', 'reliability', 'figures.json');
export const FIGURES_BEGIN = '<!-- figures:begin (written by `npm run reliability`) -->';
export const FIGURES_END = '<!-- figures:end -->';

const measured = z.union([z.number().int().min(0), z.literal(NOT_MEASURED)]);

export const figureSchema = z
  .object({
    section: z.enum(['faults', 'crashes', 'hostile-input', 'key-safety']),
    row: z.string().min(1),
    load: z.string(),
    injected: z.record(z.string(), z.number()),
    outcome: z.record(z.string(), z.union([z.number(), z.string()])),
    lost: measured,
    duplicated: measured,
    leaked: measured,
    file: z.string(),
    size: z.enum(['test', 'soak']),
    command: z.string(),
    at: z.iso.datetime(),
    node: z.string(),
    machine: z.string(),
  })
  .strict();
export type Figure = z.infer<typeof figureSchema>;

const SECTIONS: Readonly<Record<Figure['section'], string>> = {
  faults: '1. Faults',
  crashes: '2. Crashes',
  'hostile-input': '3. Hostile input',
  'key-safety': "4. The key's safety",
};

/** Figures in the page's order. */
function ordered(figures: readonly Figure[]): Figure[] {
  return [...figures].sort(
    (a, b) =>
      a.file.localeCompare(b.file) || a.row.localeCompare(b.row) || a.size.localeCompare(b.size),
  );
}

/** The committed figures (none before the first `npm run reliability`). */
export function readCommittedFigures(file = FIGURES_FILE): Figure[] {
  if (!existsSync(file)) return [];
  return z.array(figureSchema).parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** The figures file's text: the latest record of every row, in the page's order. */
export function figuresText(figures: readonly Figure[]): string {
  return `${JSON.stringify(ordered(figures), null, 2)}\n`;
}

/**
 * The rows of `fresh`, and those of `committed` whose test file did not run at that size in the
 * fresh run (a file that ran says all its rows again, so a row it no longer records goes); rows
 * whose test file is gone (`exists` says) are dropped.
 */
export function mergeFigures(
  committed: readonly Figure[],
  fresh: readonly Figure[],
  exists: (file: string) => boolean,
): Figure[] {
  const ran = new Set(fresh.map((f) => `${f.file}\n${f.size}`));
  const kept = committed.filter((f) => !ran.has(`${f.file}\n${f.size}`));
  return ordered([...kept, ...fresh].filter((f) => exists(f.file)));
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
const number = (value: number) => value.toLocaleString('en');
const shown = (value: number | string) => (typeof value === 'number' ? number(value) : value);
/** Events only: durations ("… (ms)") and sizes ("tasks …") are context, not things survived. */
const isEventCount = (key: string) => !/\(ms\)|^tasks\b/i.test(key);
const pairs = (values: Readonly<Record<string, number | string>>) =>
  Object.entries(values)
    .map(([key, value]) => `${key} ${shown(value)}`)
    .join('; ');
const measuredOn = (f: Figure) =>
  `${f.at.slice(0, 10)}, Node ${f.node}, ${f.machine.split(' (')[0] ?? f.machine}`;

function sectionTable(figures: readonly Figure[]): string {
  const lines = [
    '| Row | Size | Load held | Injected / tried | Checked | Lost | Duplicated | Leaked | Measured | Command |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const f of figures) {
    const cells = [f.row, f.size, f.load, pairs(f.injected), pairs(f.outcome)]
      .map(cell)
      .concat([shown(f.lost), shown(f.duplicated), shown(f.leaked)].map(String))
      .concat([measuredOn(f), `\`${f.command}\``]);
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** The sum of the rows that counted it, and how many did not. */
function total(figures: readonly Figure[], pick: (f: Figure) => number | string): string {
  const counted = figures.map(pick).filter((value): value is number => typeof value === 'number');
  const missing = figures.length - counted.length;
  const sum = counted.length === 0 ? '–' : number(counted.reduce((n, value) => n + value, 0));
  return missing === 0 ? sum : `${sum} (${missing} of ${figures.length} rows ${NOT_MEASURED})`;
}

function totalsTable(figures: readonly Figure[]): string {
  const lines = [
    '| Section | Size | Rows | Faults, crashes or inputs survived (counted) | Lost | Duplicated | Leaked |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const [section, title] of Object.entries(SECTIONS)) {
    for (const size of ['test', 'soak'] as const) {
      const mine = figures.filter((f) => f.section === section && f.size === size);
      if (mine.length === 0) {
        lines.push(`| ${title} | ${size} | 0 (not run) | – | – | – | – |`);
        continue;
      }
      const survived = mine.reduce(
        (n, f) =>
          n +
          Object.entries(f.injected)
            .filter(([key]) => isEventCount(key))
            .reduce((m, [, value]) => m + value, 0),
        0,
      );
      const columns = [
        number(survived),
        total(mine, (f) => f.lost),
        total(mine, (f) => f.duplicated),
        total(mine, (f) => f.leaked),
      ];
      lines.push(`| ${title} | ${size} | ${mine.length} | ${columns.join(' | ')} |`);
    }
  }
  return lines.join('\n');
}

/** The region between the markers: totals, then one table per section. */
export function renderFigures(figures: readonly Figure[]): string {
  const rows = ordered(figures);
  const machines = [...new Set(rows.map((f) => `${f.machine}, Node ${f.node}`))];
  const sections = Object.entries(SECTIONS).map(([section, title]) => {
    const mine = rows.filter((f) => f.section === section);
    return `## ${title}\n\n${mine.length ? sectionTable(mine) : 'Not run.'}`;
  });
  return [
    `Rows recorded: ${rows.length}. Machines: ${machines.length ? machines.join('; ') : 'none'}.`,
    `## Totals\n\n${totalsTable(rows)}`,
    ...sections,
  ].join('\n\n');
}

/**
 * `page` with the text between the figures markers replaced by `region`; everything outside them
 * is kept byte for byte.
 * @throws Error when the page does not hold both markers, in order.
 */
export function withFigures(page: string, region: string): string {
  const begin = page.indexOf(FIGURES_BEGIN);
  const end = page.indexOf(FIGURES_END);
  if (begin === -1 || end < begin) {
    throw new Error(`docs/RELIABILITY.md needs the lines ${FIGURES_BEGIN} and ${FIGURES_END}.`);
  }
  return `${page.slice(0, begin + FIGURES_BEGIN.length)}\n\n${region}\n\n${page.slice(end)}`;
}

/** The text between the figures markers of `page`, as {@link withFigures} wrote it. */
export function figuresOf(page: string): string | null {
  const begin = page.indexOf(FIGURES_BEGIN);
  const end = page.indexOf(FIGURES_END);
  if (begin === -1 || end < begin) return null;
  return page
    .slice(begin + FIGURES_BEGIN.length, end)
    .replace(/^\n\n/, '')
    .replace(/\n\n$/, '');
}
