/**
 * The commands the steps of .github/workflows run, as each runner of each matrix leg runs them:
 * `${{ matrix.x }}` expanded with the leg's values, a step kept only when its `if:` holds on that
 * leg's OS, each command split into the project script it calls (`npm run [--silent] NAME [--
 * ARGS]`, behind `xvfb-run -a` or not, its output redirected or not) and its arguments, exactly
 * as the step gives them. What this cannot read (an expression, a condition or a command of
 * another shape) throws, so a workflow change that the step runner (ci-steps.test.ts) does not
 * understand fails it rather than being left out. Pure; unit-tested (workflow-steps.test.ts).
 */

export type RunnerOs = 'Linux' | 'macOS' | 'Windows';

interface WorkflowStep {
  readonly name?: string;
  readonly run?: string;
  readonly if?: string;
  readonly env?: Record<string, string>;
}

interface WorkflowJob {
  readonly 'runs-on': string;
  readonly env?: Record<string, string>;
  readonly strategy?: { readonly matrix?: { readonly include?: Record<string, string>[] } };
  readonly steps: readonly WorkflowStep[];
}

export interface Workflow {
  readonly jobs: Record<string, WorkflowJob>;
}

/** One matrix leg of a job (a job without a matrix has one, with no values). */
export interface Leg {
  readonly job: string;
  /** The leg's name: its matrix `name`, else the job's. */
  readonly name: string;
  readonly os: RunnerOs;
  /** The runner's CPU: the leg's `arch`, else x64. */
  readonly arch: 'x64' | 'arm64';
  readonly matrix: Record<string, string>;
  /** The job's env, then the step's, as written (expressions unexpanded). */
  readonly jobEnv: Record<string, string>;
}

/** One command of one step on one leg. */
export interface StepCommand {
  readonly leg: Leg;
  readonly step: string;
  /** The project script, or `ci` for `npm ci`. */
  readonly script: string;
  /** npm's own arguments as given: `['run', '--silent', 'ci:chromium']`, `['ci']`. */
  readonly npm: readonly string[];
  /** The words after `--`, as given. */
  readonly args: readonly string[];
  /** Run behind `xvfb-run -a`. */
  readonly xvfb: boolean;
  readonly env: Record<string, string>;
}

/** The runner OS of a `runs-on` label. */
export function runnerOs(label: string): RunnerOs {
  if (/^ubuntu-/.test(label)) return 'Linux';
  if (/^macos-/.test(label)) return 'macOS';
  if (/^windows-/.test(label)) return 'Windows';
  throw new Error(`The runner label ${label} is of no OS the step runner knows.`);
}

/** `text` with `${{ matrix.x }}` replaced by the leg's values; any other expression throws. */
export function expandMatrix(text: string, matrix: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (whole, expression: string) => {
    const key = /^matrix\.([\w-]+)$/.exec(expression)?.[1];
    const value = key === undefined ? undefined : matrix[key];
    if (value === undefined) throw new Error(`${whole} cannot be expanded in a run: line.`);
    return value;
  });
}

/**
 * Whether a step's `if:` holds on `os`: none, `always()` (a clean-up), `runner.os == 'X'` or
 * `runner.os != 'X'`.
 */
export function holdsOn(condition: string | undefined, os: RunnerOs): boolean {
  if (condition === undefined || condition.trim() === 'always()') return true;
  const match = /^runner\.os (==|!=) '(Linux|macOS|Windows)'$/.exec(condition.trim());
  if (!match) throw new Error(`The step condition "${condition}" is not one the runner reads.`);
  return match[1] === '==' ? os === match[2] : os !== match[2];
}

/** Every leg of every job. */
export function legsOf(workflow: Workflow): Leg[] {
  return Object.entries(workflow.jobs).flatMap(([job, definition]) => {
    const include = definition.strategy?.matrix?.include ?? [{}];
    return include.map((matrix) => {
      const os = runnerOs(expandMatrix(definition['runs-on'], matrix));
      const arch = matrix['arch'] ?? 'x64';
      if (arch !== 'x64' && arch !== 'arm64') throw new Error(`${job}: no runner is ${arch}.`);
      return { job, name: matrix['name'] ?? job, os, arch, matrix, jobEnv: definition.env ?? {} };
    });
  });
}

/** The words of a command line: plain words only (no quotes but a redirection's target). */
function words(line: string): string[] {
  const [command] = line.split(/\s+>>?\s+/);
  if (/["'`$;|&()]/.test(command ?? ''))
    throw new Error(`The command "${line}" is not a plain npm command line.`);
  return (command ?? '').trim().split(/\s+/);
}

/** A command line's project script and its arguments. */
export function parseCommand(line: string): Pick<StepCommand, 'script' | 'npm' | 'args' | 'xvfb'> {
  let rest = words(line);
  const xvfb = rest[0] === 'xvfb-run';
  if (xvfb) {
    if (rest[1] !== '-a') throw new Error(`xvfb-run without -a: "${line}".`);
    rest = rest.slice(2);
  }
  if (rest[0] !== 'npm') throw new Error(`The command "${line}" does not run an npm script.`);
  const dashes = rest.indexOf('--');
  const npm = dashes === -1 ? rest.slice(1) : rest.slice(1, dashes);
  const args = dashes === -1 ? [] : rest.slice(dashes + 1);
  if (npm.length === 1 && npm[0] === 'ci' && args.length === 0)
    return { script: 'ci', npm, args, xvfb };
  const names = npm.filter((word) => !word.startsWith('-'));
  if (names[0] !== 'run' || names.length !== 2)
    throw new Error(`The command "${line}" is not \`npm run NAME [-- ARGS]\`.`);
  return { script: names[1] ?? '', npm, args, xvfb };
}

/** Every command each leg runs, in order. */
export function commandsOf(workflow: Workflow): StepCommand[] {
  return legsOf(workflow).flatMap((leg) =>
    (workflow.jobs[leg.job]?.steps ?? []).flatMap((step) => {
      if (step.run === undefined || !holdsOn(step.if, leg.os)) return [];
      return step.run
        .split('\n')
        .flatMap((line) => line.split(/\s+&&\s+/))
        .filter((line) => line.trim() !== '')
        .map((line) => ({
          leg,
          step: step.name ?? step.run ?? '',
          ...parseCommand(expandMatrix(line.trim(), leg.matrix)),
          env: { ...leg.jobEnv, ...step.env },
        }));
    }),
  );
}

/** What a runner's `github` context holds, as the step runner stands in for it. */
export interface RunnerContext {
  readonly workspace: string;
  readonly repository: string;
  readonly refName: string;
}

/** One term of an expression: a context value, a secret (none here), `format(…)`. */
function term(text: string, leg: Leg, runner: RunnerContext): string {
  const github: Record<string, string> = {
    workspace: runner.workspace,
    repository: runner.repository,
    ref_name: runner.refName,
  };
  // This repository's secrets and variables are absent here, as on a fork's runner.
  if (/^secrets\.\w+ != ''$/.test(text)) return 'false';
  // `a && b && …`: true only when every part is.
  if (text.includes(' && '))
    return text.split(/\s+&&\s+/).every((part) => term(part.trim(), leg, runner) === 'true')
      ? 'true'
      : 'false';
  // A public repository, as the release job requires (release-preflight.ts).
  if (text === 'github.event.repository.private') return 'false';
  if (/^(secrets|vars)\.\w+$/.test(text) || text === 'github.token') return '';
  const name = /^(matrix|github)\.(\w+)$/.exec(text);
  const value = name ? (name[1] === 'matrix' ? leg.matrix : github)[name[2] ?? ''] : undefined;
  if (value !== undefined) return value;
  const format = /^format\('([^']*)'((?:,\s*[\w.]+)*)\)$/.exec(text);
  if (format) {
    const values = (format[2] ?? '')
      .split(',')
      .slice(1)
      .map((arg) => term(arg.trim(), leg, runner));
    return (format[1] ?? '').replace(
      /\{(\d+)\}/g,
      (_, index: string) => values[Number(index)] ?? '',
    );
  }
  throw new Error(`The expression "${text}" is not one the step runner evaluates.`);
}

/** An env value with its `${{ … }}` evaluated (`a || b`: the first that is not empty). */
export function envValue(value: string, leg: Leg, runner: RunnerContext): string {
  return value.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    for (const part of expression.split(/\s+\|\|\s+/)) {
      const result = term(part.trim(), leg, runner);
      if (result !== '') return result;
    }
    return '';
  });
}
