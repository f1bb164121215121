/**
 * `npm run security`: Electronegativity over electron/ with no finding allowed.
 *
 * 1. Self-test: the insecure sample in tests/security/fixtures must produce every finding in
 *    EXPECTED_SAMPLE_FINDINGS, with the same exclusions, and a weak CSP must be flagged, so a
 *    broken parser, a silently failing scanner or an over-broad exclusion fails the run.
 * 2. electron/ must produce no finding and no parse error (an unparsed file is an unchecked file).
 * 3. RENDERER_CSP must raise nothing but the reviewed notes.
 * 4. Every inline `// eng-disable CHECK (reason)` in electron/ gives its reason, and is listed.
 * Prints the findings, then one summary line; exits 1 on any failure.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RENDERER_CSP } from '../../electron/app/protocol/csp';
import {
  EXCLUDED_CHECKS,
  EXPECTED_SAMPLE_FINDINGS,
  REVIEWED_CSP_NOTES,
  WEAK_SAMPLE_CSP,
} from './electronegativity-policy';
import { evaluateCsp, installedElectronVersion, scan, type Finding } from './scan';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE_DIR = path.join(ROOT, 'electron');
const SAMPLE_DIR = path.join(ROOT, 'tests/security/fixtures');
const SCANNED = /\.(js|jsx|ts|tsx|html|htm)$/;

function scannedFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
    (file) => SCANNED.test(file) && !file.split(path.sep).includes('node_modules'),
  );
}

/** An inline `eng-disable` hides a finding; each must say why, in parentheses, on its line. */
const INLINE_DISABLE = /eng-disable\b(.*)$/;
function inlineExclusions(dir: string, files: string[]): { listed: string[]; problems: string[] } {
  const listed: string[] = [];
  const problems: string[] = [];
  for (const file of files) {
    readFileSync(path.join(dir, file), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        const match = INLINE_DISABLE.exec(line);
        if (!match) return;
        const where = `${file}:${index + 1}`;
        const checks = /^\s+([\w \t]+)/.exec(match[1] ?? '')?.[1]?.trim() ?? '?';
        listed.push(`${where} ${checks}`);
        if (!/\(\s*\S[^)]*\)/.test(match[1] ?? '')) {
          problems.push(`${where}: eng-disable without a reason in parentheses`);
        }
      });
  }
  return { listed, problems };
}

function describe(finding: Finding): string {
  const where = `${finding.file}:${finding.location.line}:${finding.location.column}`;
  const review = finding.manualReview ? ', review required' : '';
  return `  ${finding.id}  ${where}  (${finding.severity?.name ?? '?'}${review})`;
}

async function selfTest(excluded: string[], version: string): Promise<string[]> {
  const sample = await scan(SAMPLE_DIR, excluded, version);
  const found = new Set(sample.issues.map((issue) => issue.id));
  const problems = EXPECTED_SAMPLE_FINDINGS.filter((id) => !found.has(id)).map(
    (id) => `self-test: the insecure sample did not produce ${id}`,
  );
  for (const error of sample.errors) {
    problems.push(`self-test: could not parse ${error.file}: ${error.message}`);
  }
  if (evaluateCsp(WEAK_SAMPLE_CSP).length === 0) {
    problems.push('self-test: the CSP evaluator accepted a weak CSP');
  }
  return problems;
}

function cspProblems(): string[] {
  const reviewed = new Set(REVIEWED_CSP_NOTES.map((entry) => entry.note));
  return evaluateCsp(RENDERER_CSP)
    .filter((note) => !reviewed.has(note.text))
    .map((note) => `RENDERER_CSP: ${note.severity} ${note.text}`);
}

async function main(): Promise<number> {
  const version = installedElectronVersion();
  const excluded = EXCLUDED_CHECKS.map((entry) => entry.check);
  const selfTestProblems = await selfTest(excluded, version);
  const result = await scan(SOURCE_DIR, excluded, version);
  const files = scannedFiles(SOURCE_DIR);
  const inline = inlineExclusions(SOURCE_DIR, files);
  const problems = [
    ...selfTestProblems,
    ...inline.problems,
    ...result.errors.map((error) => `could not parse ${error.file}: ${error.message}`),
    ...cspProblems(),
  ];
  for (const finding of result.issues) console.log(describe(finding));
  for (const problem of problems) console.log(`  ${problem}`);
  for (const entry of inline.listed) console.log(`  reviewed inline: ${entry}`);
  const passed = result.issues.length === 0 && problems.length === 0;
  const counts =
    `${result.issues.length} finding(s) in electron/ (${files.length} files, Electron ${version}, ` +
    `${result.checksRun} checks, ${excluded.length} excluded, ${inline.listed.length} reviewed ` +
    `inline), ${problems.length} other problem(s)`;
  console.log(`electronegativity: ${passed ? 'passed' : 'FAILED'}: ${counts}`);
  return passed ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('electronegativity: FAILED to run:', error);
    process.exitCode = 1;
  },
);
