/**
 * Runs Pictor's command line in this process (electron/cli/main.ts's runCli): the cheapest way to
 * run one command, with its own environment (nothing inherited) and the tests' image engine; and
 * a library holding one task the built-in demo made through it, for the tests of what the
 * commands say of a task.
 */
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { testImageEngine } from './image-engine';
import { QUICK_DEMO, QUICK_POLL } from './quick-demo';
import { removeFolder, tempFolder } from './temp-folders';

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

/** A temp home whose library (`data`) holds one task the built-in demo made (cliDemoTask). */
export interface CliDemoTask {
  /** The home (HOME, XDG_CONFIG_HOME under it). */
  readonly home: string;
  /** The library's data folder, `data` in the home. */
  readonly data: string;
  /** What `generate --json` printed of the task. */
  readonly made: InProcessRun;
  readonly localId: string;
  /** The path of its one image. */
  readonly file: string;
  /**
   * `pictor <args> --data-dir <dataDir>` in the home, its exit code expected to be `code`;
   * `dataDir` by default the library's.
   */
  run(args: readonly string[], code?: number, dataDir?: string): Promise<InProcessRun>;
  /** Removes the home. */
  remove(): Promise<void>;
}

/**
 * The command that makes the task of {@link cliDemoTask}, looking at it every 0.1 s (QUICK_POLL):
 * its 100 ms task had it wait out most of the default 3 s interval, each of the three files that
 * start from it about 3 s of its 3.1.
 */
const DEMO_TASK = [
  'generate',
  '--provider',
  'demo',
  'a fox',
  '--size',
  '32x32',
  '--json',
  ...QUICK_POLL,
];

/**
 * A temp home and, in its library, one task of one 32×32 image the built-in demo made for `a fox`
 * through `pictor generate --provider demo --json` (the demo's tasks short: quick-demo.ts). For a
 * file's beforeAll, which returns its `remove` to end it.
 */
export async function cliDemoTask(): Promise<CliDemoTask> {
  const home = await tempFolder('cli-demo');
  const data = join(home, 'data');
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
  const run = async (args: readonly string[], code = 0, dataDir = data) => {
    const done = await runInProcess([...args, '--data-dir', dataDir], env);
    expect(done.code, describeInProcess(done)).toBe(code);
    return done;
  };
  const made = await run(DEMO_TASK).catch(async (error: unknown) => {
    await removeFolder(home);
    throw error;
  });
  const task = JSON.parse(made.stdout) as { localId: string; images: { path: string }[] };
  return {
    home,
    data,
    made,
    localId: task.localId,
    file: task.images[0]?.path ?? '',
    run,
    remove: () => removeFolder(home),
  };
}
