/**
 * Writes docs/RELIABILITY.md from the figures the hardening suites recorded in their last run
 * (test-results/reliability/*.json): one table per section (faults, crashes, hostile input, key safety), a totals table, the
 * machine, and the command behind each row. The hand-written notes below the NOTES marker of
 * the existing doc are kept as they are.
 *
 *   npx tsx tests/hardening/report.ts      (after `npm test` or `npx vitest run --project hardening`)
 *   npm run soak                           (runs the suites at the larger size, then this)
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { RELIABILITY_DIR } from './support/reliability-record';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOC = join(ROOT, 'docs', 'RELIABILITY.md');
const NOTES = '<!-- notes: written by hand, kept by tests/hardening/report.ts -->';

const figureSchema = z.object({
  section: z.enum(['faults', 'crashes', 'hostile-input', 'key-safety']),
  row: z.string(),
  load: z.string(),
  injected: z.record(z.string(), z.number()),
  outcome: z.record(z.string(), z.union([z.number(), z.string()])),
  lost: z.number(),
  duplicated: z.number(),
  leaked: z.number().nullable(),
  file: z.string(),
  size: z.enum(['test', 'soak']),
  command: z.string(),
  at: z.string(),
});
type Figure = z.infer<typeof figureSchema>;

const SECTIONS: Record<Figure['section'], string> = {
  faults: '1. Faults',
  crashes: '2. Crashes',
  'hostile-input': '3. Hostile input',
  'key-safety': "4. The key's safety",
};

function readFigures(): Figure[] {
  if (!existsSync(RELIABILITY_DIR)) return [];
  return readdirSync(RELIABILITY_DIR)
    .filter((name) => name.endsWith('.json'))
    .map((name) =>
      figureSchema.parse(JSON.parse(readFileSync(join(RELIABILITY_DIR, name), 'utf8'))),
    )
    .sort(
      (a, b) =>
        a.file.localeCompare(b.file) || a.row.localeCompare(b.row) || a.size.localeCompare(b.size),
    );
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
/** Events only: durations ("… (ms)") and sizes ("tasks …") are context, not things survived. */
const isEventCount = (key: string) => !/\(ms\)|^tasks\b/i.test(key);
const sum = (values: Readonly<Record<string, number>>) =>
  Object.entries(values)
    .filter(([key]) => isEventCount(key))
    .reduce((total, [, value]) => total + value, 0);
const pairs = (values: Readonly<Record<string, number | string>>) =>
  Object.entries(values)
    .map(
      ([key, value]) => `${key} ${typeof value === 'number' ? value.toLocaleString('en') : value}`,
    )
    .join('; ');

function sectionTable(figures: readonly Figure[]): string {
  const lines = [
    '| Row | Size | Load held | Injected / tried | Checked | Lost | Duplicated | Key leaks | Command |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const f of figures) {
    lines.push(
      `| ${cell(f.row)} | ${f.size} | ${cell(f.load)} | ${cell(pairs(f.injected))} | ${cell(pairs(f.outcome))} | ${f.lost} | ${f.duplicated} | ${f.leaked ?? 'not measured'} | \`${f.command}\` |`,
    );
  }
  return lines.join('\n');
}

function totalsTable(figures: readonly Figure[]): string {
  const lines = [
    '| Section | Size | Rows | Faults, crashes or inputs survived (counted) | Lost | Duplicated | Key leaks |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const [section, title] of Object.entries(SECTIONS)) {
    for (const size of ['test', 'soak'] as const) {
      const mine = figures.filter((f) => f.section === section && f.size === size);
      if (mine.length === 0) {
        lines.push(`| ${title} | ${size} | 0 (not run) | – | – | – | – |`);
        continue;
      }
      const total = (pick: (f: Figure) => number) => mine.reduce((n, f) => n + pick(f), 0);
      lines.push(
        `| ${title} | ${size} | ${mine.length} | ${total((f) => sum(f.injected)).toLocaleString('en')} | ${total((f) => f.lost)} | ${total((f) => f.duplicated)} | ${total((f) => f.leaked ?? 0)}${mine.some((f) => f.leaked === null) ? ' (some rows not measured)' : ''} |`,
      );
    }
  }
  return lines.join('\n');
}

function keptNotes(): string {
  if (!existsSync(DOC)) return `${NOTES}\n`;
  const text = readFileSync(DOC, 'utf8');
  const at = text.indexOf(NOTES);
  return at === -1 ? `${NOTES}\n` : text.slice(at);
}

function render(figures: readonly Figure[]): string {
  const latest =
    figures
      .map((f) => f.at)
      .sort()
      .at(-1) ?? 'never';
  const machine = `${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(0)} GB, Node ${process.versions.node}, ${process.platform}`;
  const sections = Object.entries(SECTIONS)
    .map(([section, title]) => {
      const mine = figures.filter((f) => f.section === section);
      return `## ${title}\n\n${mine.length ? sectionTable(mine) : 'Not run.'}\n`;
    })
    .join('\n');
  return `# Reliability

What Pictor survives, measured by the hardening suites in \`tests/hardening/\`. Every
figure below was counted by a test that asserts it (the test fails on any loss, duplicate or
leak), and was written by that test after its assertions passed. \`npm test\` runs every suite at
the "test" size; \`npm run soak\` runs the same files at the larger "soak" size and rewrites this
page. Regenerate this page from the last run with \`npx tsx tests/hardening/report.ts\`.

Last figures: ${latest}. Machine: ${machine}.

## Totals

${totalsTable(figures)}

${sections}
${keptNotes()}`;
}

const figures = readFigures();
writeFileSync(DOC, render(figures));
console.log(`reliability report: ${figures.length} rows → docs/RELIABILITY.md`);
