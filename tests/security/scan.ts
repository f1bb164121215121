/**
 * Runs Electronegativity through its programmatic API, offline, and evaluates a CSP with the
 * evaluator Electronegativity itself uses. Used by run-electronegativity.ts.
 */
import { createRequire, Module } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
const ENGINE_ENTRY = require.resolve('@doyensec/electronegativity');
const engineRequire = createRequire(ENGINE_ENTRY);

/** One finding, as Electronegativity reports it (the fields this runner reads). */
export interface Finding {
  readonly id: string;
  readonly file: string;
  readonly location: { readonly line: number; readonly column: number };
  readonly manualReview?: boolean;
  readonly severity?: { readonly name?: string };
}

export interface ScanResult {
  readonly issues: readonly Finding[];
  /** Files the parser could not read: they were not checked, so any one fails the run. */
  readonly errors: readonly { readonly file: string; readonly message: string }[];
  readonly checksRun: number;
}

type Run = (options: Record<string, unknown>) => Promise<{
  issues: Finding[];
  errors: { file: string; message: string }[];
  globalChecks: number;
  atomicChecks: number;
}>;

/**
 * Replaces the HTTP client Electronegativity loads (`got`) with one that always fails, before
 * Electronegativity is loaded. It fetches translations at start-up (and release data in the
 * excluded check); the scan must not depend on the network, and failing falls back to the
 * bundled English texts.
 */
function keepOffline(): void {
  const gotPath = engineRequire.resolve('got');
  const offline = Object.assign(
    () => Promise.reject(new Error('The security scan makes no network requests.')),
    { __esModule: true },
  );
  const stub = Object.assign(offline, { default: offline, head: offline });
  const module = new Module(gotPath);
  module.filename = gotPath;
  module.loaded = true;
  module.exports = stub;
  require.cache[gotPath] = module;
}

let engine: Run | undefined;
function loadEngine(): Run {
  if (!engine) {
    keepOffline();
    engine = engineRequire(ENGINE_ENTRY) as Run;
  }
  return engine;
}

/** The installed Electron's version, so version-dependent defaults are judged for it. */
export function installedElectronVersion(): string {
  const manifest = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/**
 * Scans `input` (a folder or file) with every check except `excludedChecks` (class names).
 * Electronegativity's own console output (a note that translations were not fetched) is kept
 * out of the way and returned in `log` instead.
 */
export async function scan(
  input: string,
  excludedChecks: readonly string[],
  electronVersion: string,
): Promise<ScanResult & { readonly log: readonly string[] }> {
  const run = loadEngine();
  const log: string[] = [];
  const original = console.log;
  console.log = (...args: unknown[]) => void log.push(args.map(String).join(' '));
  try {
    const result = await run({
      input,
      customScan: [],
      excludeFromScan: excludedChecks.map((name) => name.toLowerCase()),
      isRelative: true,
      isVerbose: false,
      electronVersionOverride: electronVersion,
      parserPlugins: [],
    });
    return {
      issues: result.issues,
      errors: result.errors,
      checksRun: result.globalChecks + result.atomicChecks,
      log,
    };
  } finally {
    console.log = original;
  }
}

interface CspFinding {
  severity: number;
  directive: string;
  value?: string;
  description: string;
}
interface CspEvaluatorModule {
  CspParser: new (csp: string) => { csp: unknown };
  CspEvaluator: new (csp: unknown, version: unknown) => { evaluate(): CspFinding[] };
  Version: { CSP3: unknown };
  severities: Record<string, number>;
}

/** A CSP note the evaluator raises, as `<directive>: <description>`. */
export interface CspNote {
  readonly severity: string;
  readonly text: string;
}

/**
 * The findings Electronegativity's CSP_GLOBAL_CHECK would act on (HIGH, MEDIUM, their "maybe"
 * forms, syntax errors), from the same evaluator it uses. Informational notes are left out,
 * as that check leaves them out.
 */
export function evaluateCsp(csp: string): CspNote[] {
  const evaluator = engineRequire('@doyensec/csp-evaluator') as CspEvaluatorModule;
  const { severities } = evaluator;
  const relevant = new Map(
    ['HIGH', 'SYNTAX', 'MEDIUM', 'HIGH_MAYBE', 'MEDIUM_MAYBE'].map((name) => [
      severities[name],
      name,
    ]),
  );
  const parsed = new evaluator.CspParser(csp);
  return new evaluator.CspEvaluator(parsed.csp, evaluator.Version.CSP3)
    .evaluate()
    .filter((finding) => relevant.has(finding.severity))
    .map((finding) => ({
      severity: relevant.get(finding.severity) ?? String(finding.severity),
      text: `${finding.directive}: ${finding.description}`,
    }));
}
