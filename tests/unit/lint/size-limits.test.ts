/**
 * STYLE's sizes are lint errors for product code (eslint.config.js `sizeLimits`). The files over a
 * limit today are listed in `sizeOffenders` with their size now as a ceiling; the list may only
 * shrink: a new offender fails lint, and a listed file that shrinks or stops offending fails here
 * until its entry is lowered or removed. The list itself is held under size-baseline.json, the
 * committed list of the day the ceilings were fixed: adding a file to `sizeOffenders` or raising a
 * ceiling (which would make the exact-match test pass again) fails here too. The measures are
 * those the lint stage took with ESLint's own rules in its one lint of the tree, when they were
 * taken from today's files (tests/support/size-offenders-record.ts); otherwise this file takes them.
 */
import { ESLint } from 'eslint';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sizeOffendersOf } from '../../support/size-offenders-record';
import {
  offendersIn,
  sizeConfig,
  sizeMeasuring,
  withoutMeasures,
  type SizeOffenders,
  type SizeRule,
} from '../../support/size-offenders';
import baselineFile from './size-baseline.json';
import { REPO_ROOT } from '../../support/source-files';

const baseline = baselineFile.offenders as SizeOffenders;

const eslint = new ESLint({ cwd: REPO_ROOT });
/** The lint stage's ESLint: the project's config with the measuring rules beside it. */
const stage = new ESLint({ cwd: REPO_ROOT, overrideConfig: await sizeMeasuring() });

async function problems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(REPO_ROOT, path) });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

/** A module of `count` code lines. */
function fileOf(count: number): string {
  return Array.from({ length: count }, (_, i) => `export const v${i} = ${i};\n`).join('');
}

/** A module whose one function is `count` lines long, braces included. */
function functionOf(count: number): string {
  const body = Array.from({ length: count - 4 }, () => '  n += 1;\n').join('');
  return `export function f(): number {\n  let n = 0;\n${body}  return n;\n}\n`;
}

/** A module whose one function takes `count` parameters. */
function paramsOf(count: number): string {
  const names = Array.from({ length: count }, (_, i) => `p${i}`);
  return `export function f(${names.map((n) => `${n}: number`).join(', ')}): number {\n  return ${names.join(' + ')};\n}\n`;
}

/** A module with blocks nested `count` deep. */
function depthOf(count: number): string {
  const open = Array.from({ length: count }, () => 'if (x > 0) {').join(' ');
  return `export function f(x: number): number {\n  ${open} return 1; ${'} '.repeat(count)}\n  return 0;\n}\n`;
}

/** Each way `offenders` goes past `base`: a file not in it, or a ceiling above its value there. */
function growthOver(base: SizeOffenders, offenders: SizeOffenders): string[] {
  return Object.entries(offenders).flatMap(([file, ceilings]) => {
    const allowed = base[file];
    if (!allowed) return [`${file}: not in size-baseline.json`];
    return Object.entries(ceilings).flatMap(([rule, value]) => {
      const most = allowed[rule as SizeRule];
      return most !== undefined && value <= most
        ? []
        : [`${file}: ${rule} ${value} is over the baseline's ${most ?? 'none'}`];
    });
  });
}

const at = (limit: number) => [limit, limit + 1] as const;

describe('size limits', () => {
  it('are STYLE.md numbers: files 300 lines, functions 60, 4 parameters, 3 deep', async () => {
    expect((await sizeConfig()).sizeLimits).toEqual({
      'max-lines': 300,
      'max-lines-per-function': 60,
      'max-params': 4,
      'max-depth': 3,
    });
  });

  it.each([
    ['max-lines', fileOf, ...at(300)],
    ['max-lines-per-function', functionOf, ...at(60)],
    ['max-params', paramsOf, ...at(4)],
    ['max-depth', depthOf, ...at(3)],
  ] as const)('%s allows its limit and reports one more', async (rule, make, limit, over) => {
    for (const file of ['electron/core/gallery/x.ts', 'renderer/features/x.tsx', 'shared/x.ts']) {
      expect(await problems(file, make(limit)), file).toEqual([]);
      expect((await problems(file, make(over))).join('\n'), file).toContain(`${rule}: `);
    }
  });

  it("holds a listed offender at its own size, not STYLE's", async () => {
    const { sizeOffenders } = await sizeConfig();
    const [file, ceilings] = Object.entries(sizeOffenders).find(([, c]) => c['max-lines'])!;
    const ceiling = ceilings['max-lines']!;
    expect(await problems(file, fileOf(ceiling))).not.toContain(expect.stringMatching(/max-lines/));
    expect((await problems(file, fileOf(ceiling + 1))).join('\n')).toContain('max-lines: ');
  });

  it('leaves tests out: a suite is one long describe callback', async () => {
    expect(await problems('tests/unit/core/x.test.ts', functionOf(200) + fileOf(400))).toEqual([]);
  });

  it("the lint stage reports what the config reports, and measures past a file's ceiling", async () => {
    const { sizeOffenders } = await sizeConfig();
    const [file, ceilings] = Object.entries(sizeOffenders).find(([, c]) => c['max-lines'])!;
    const ceiling = ceilings['max-lines']!;
    const cases = [
      ['shared/x.ts', functionOf(61) + paramsOf(5)],
      [file, fileOf(ceiling)],
      [file, fileOf(ceiling + 1)],
    ] as const;
    for (const [path, code] of cases) {
      const [linted] = await stage.lintText(code, { filePath: join(REPO_ROOT, path) });
      const [own] = await eslint.lintText(code, { filePath: join(REPO_ROOT, path) });
      const { messages, errorCount, warningCount } = withoutMeasures(linted!);
      expect({ messages, errorCount, warningCount }, path).toEqual({
        messages: own!.messages,
        errorCount: own!.errorCount,
        warningCount: own!.warningCount,
      });
    }
    const measured = async (path: string, code: string) =>
      offendersIn(await stage.lintText(code, { filePath: join(REPO_ROOT, path) }), REPO_ROOT);
    expect(await measured('shared/x.ts', functionOf(61) + paramsOf(5))).toEqual({
      'shared/x.ts': { 'max-lines-per-function': 61, 'max-params': 5 },
    });
    expect(await measured(file, fileOf(ceiling))).toEqual({ [file]: { 'max-lines': ceiling } });
    expect(await measured('tests/unit/core/x.test.ts', functionOf(200))).toEqual({});
  });

  it('finds a new file or a raised ceiling past the baseline', () => {
    const base: SizeOffenders = { 'a.ts': { 'max-lines': 310, 'max-params': 5 } };
    expect(growthOver(base, { 'a.ts': { 'max-lines': 305 } })).toEqual([]);
    expect(growthOver(base, { 'a.ts': { 'max-lines': 311 } })).toEqual([
      "a.ts: max-lines 311 is over the baseline's 310",
    ]);
    expect(growthOver(base, { 'a.ts': { 'max-depth': 4 } })).toEqual([
      "a.ts: max-depth 4 is over the baseline's none",
    ]);
    expect(growthOver(base, { 'b.ts': { 'max-params': 5 } })).toEqual([
      'b.ts: not in size-baseline.json',
    ]);
  });

  it('keeps every offender in the committed baseline, no ceiling above it (shrink-only)', async () => {
    const { sizeOffenders } = await sizeConfig();
    expect(growthOver(baseline, sizeOffenders)).toEqual([]);
  });

  it('lists exactly the offenders of the tree, each at its size now (shrink-only)', async () => {
    const { sizeOffenders } = await sizeConfig();
    // The lint stage's measures of today's tree (npm test runs it first), or ESLint over every
    // product file here: only work, no wait; a loaded machine took past 180 s.
    expect(await sizeOffendersOf(REPO_ROOT)).toEqual(sizeOffenders);
  }, 900_000);
});
