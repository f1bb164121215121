/**
 * Runs Pictor's command line in this process (electron/cli/main.ts's runCli): the cheapest way to
 * run one command, with its own environment (nothing inherited) and the tests' image engine.
 */
import { runCli } from '../../electron/cli/main';
import { testImageEngine } from './image-engine';
import { QUICK_DEMO } from './quick-demo';

/** One finished in-process run. */
export interface InProcessRun {
  readonly args: readonly string[];
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `args` with `env` and nothing inherited (HOME and the like are the caller's to give), the
 * built-in demo's tasks short unless `env` names their duration (quick-demo.ts); `program`: the
 * name the CLI gives itself in what it prints (the installed app's `pictor`; by default the
 * checkout's).
 */
export async function runInProcess(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  options: { readonly program?: string } = {},
): Promise<InProcessRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    env: { ...QUICK_DEMO, ...env },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    interrupt: new AbortController().signal,
    imageEngine: () => Promise.resolve(testImageEngine),
    ...(options.program === undefined ? {} : { program: options.program }),
  });
  return { args, code, stdout, stderr };
}

/** A readable summary of a run for assertion messages. */
export function describeInProcess(run: InProcessRun): string {
  return [
    `$ pictor ${run.args.join(' ')}`,
    `exit ${run.code}`,
    `--- stdout ---\n${run.stdout}`,
    `--- stderr ---\n${run.stderr}`,
  ].join('\n');
}
