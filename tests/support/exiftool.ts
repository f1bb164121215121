/**
 * exiftool, the independent reader the metadata tests check Pictor's writing with, kept running:
 * a Perl exiftool costs ~0.1 s of CPU to start, and a file asks it dozens of times. One
 * `exiftool -stay_open True -@ -` per test process or thread reads each command's arguments from
 * its standard input and answers them one after another, as a fresh exiftool given the same
 * arguments would (its stdout, its stderr, and a status that is not 0 rejects, as `execFile`
 * does).
 *
 * It never outlives what started it: it runs as `{ cat; printf -stay_open False; } | exiftool`
 * under a POSIX sh, so when its input closes — ended here, or the test process or thread gone,
 * however it went — exiftool is told to stop (exiftool alone polls a closed input forever). Where
 * there is no POSIX sh (Windows), each command starts an exiftool of its own.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Socket } from 'node:net';
import { promisify } from 'node:util';
import { pathOf, posixShell, tool } from './tools';

/** exiftool on PATH; tests that run it are skipped, saying so, where it is missing. */
export const EXIFTOOL = tool('exiftool');

const SH = posixShell();

/** What exiftool printed for one command. */
interface Printed {
  readonly stdout: string;
  readonly stderr: string;
}

/** The command's status, printed to stderr once it has run (`-echo4`, `${status}`). */
const STATUS = /\{status(\d+) (\d+)\}\n$/;

interface Kept {
  readonly child: ChildProcessWithoutNullStreams;
  /** The folder it was started in: relative paths are read from there. */
  readonly cwd: string;
  readonly exited: Promise<void>;
  commands: number;
  stdout: Buffer;
  stderr: Buffer;
  /** Called when the output of the command under way has grown, or the process has gone. */
  onOutput: (() => void) | null;
  gone: Error | null;
}

let kept: Kept | null = null;
/** The commands run one after another: each waits for the one before it to be answered. */
let queue: Promise<unknown> = Promise.resolve();

/** The streams and the process keep a test process alive only while a command is under way. */
function hold(state: Kept, on: boolean): void {
  // A spawned process's pipes are sockets (`stdio: 'pipe'`), typed as plain streams.
  const { stdin, stdout, stderr } = state.child;
  const handles = [state.child, ...([stdin, stdout, stderr] as unknown as Socket[])];
  for (const handle of handles) {
    if (on) handle.ref();
    else handle.unref();
  }
}

function start(): Kept {
  const child = spawn(
    pathOf(SH),
    [
      '-c',
      `{ cat; printf '%s\\n' -stay_open False; } | "$1" -stay_open True -@ -`,
      'sh',
      pathOf(EXIFTOOL),
    ],
    { stdio: 'pipe' },
  );
  let exited!: () => void;
  const state: Kept = {
    child,
    cwd: process.cwd(),
    exited: new Promise<void>((resolve) => (exited = resolve)),
    commands: 0,
    stdout: Buffer.alloc(0),
    stderr: Buffer.alloc(0),
    onOutput: null,
    gone: null,
  };
  child.stdout.on('data', (chunk: Buffer) => {
    state.stdout = Buffer.concat([state.stdout, chunk]);
    state.onOutput?.();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    state.stderr = Buffer.concat([state.stderr, chunk]);
    state.onOutput?.();
  });
  const goneWith = (error: Error) => {
    state.gone ??= error;
    if (kept === state) kept = null;
    state.onOutput?.();
  };
  child.on('error', goneWith);
  child.stdin.on('error', goneWith);
  child.on('close', (code, signal) => {
    goneWith(new Error(`the kept exiftool ended (${signal ?? `status ${code}`})`));
    exited();
  });
  hold(state, false);
  return state;
}

/**
 * An argument as one line of exiftool's argument file: refused when exiftool would read that line
 * as something else (a comment, a line break in it, white space it strips), never sent altered.
 */
function asLine(argument: string): string {
  const read = argument.replace(/^(-[-:\w]+#?)\s*([-+<]?=) ?/, '$1$2');
  if (argument === '' || /^[\s#]|[\r\n]/.test(argument) || read !== argument)
    throw new Error(`exiftool's argument file cannot carry ${JSON.stringify(argument)}`);
  return `${argument}\n`;
}

async function runKept(args: readonly string[]): Promise<Printed> {
  const lines = args.map(asLine).join('');
  if (kept && kept.cwd !== process.cwd()) await endExiftool();
  const running = (kept ??= start());
  const number = ++running.commands;
  const ready = Buffer.from(`{ready${number}}\n`);
  running.stdout = Buffer.alloc(0);
  running.stderr = Buffer.alloc(0);
  hold(running, true);
  try {
    await new Promise<void>((resolve, reject) => {
      running.onOutput = () => {
        if (running.gone) reject(running.gone);
        else if (
          running.stdout.subarray(-ready.length).equals(ready) &&
          STATUS.test(`${running.stderr}`)
        )
          resolve();
      };
      running.child.stdin.write(
        `${lines}-echo4\n{status${number} \${status}}\n-execute${number}\n`,
      );
    });
  } finally {
    running.onOutput = null;
    hold(running, false);
  }
  const stdout = running.stdout.subarray(0, -ready.length).toString('utf8');
  const said = running.stderr.toString('utf8');
  const [ending, answered, status] = STATUS.exec(said)!;
  const stderr = said.slice(0, -ending.length);
  if (Number(answered) !== number) throw new Error(`exiftool answered ${answered}, not ${number}`);
  if (status !== '0')
    throw Object.assign(
      new Error(`exiftool ${args.join(' ')} failed with status ${status}\n${stderr}`),
      { code: Number(status), stdout, stderr },
    );
  return { stdout, stderr };
}

/**
 * exiftool given `args` (options and files, as on its command line): what it printed; rejects,
 * with what it said on stderr, when its status is not 0.
 */
export function exiftoolRun(args: readonly string[]): Promise<Printed> {
  if (!SH.path)
    return promisify(execFile)(pathOf(EXIFTOOL), [...args], { maxBuffer: 16 * 1024 * 1024 });
  const answer = queue.then(() => runKept(args));
  queue = answer.catch(() => undefined);
  return answer;
}

/** `exiftool -j -G1 -struct` on one file: its tags by `Group:Name`. */
export async function exiftool(file: string): Promise<Record<string, unknown>> {
  const { stdout } = await exiftoolRun(['-j', '-G1', '-struct', file]);
  const [tags] = JSON.parse(stdout) as Array<Record<string, unknown>>;
  if (!tags) throw new Error('exiftool printed no tags');
  return tags;
}

/**
 * Ends the kept exiftool (its input closed: the same way it ends when its test process goes) and
 * waits until it has exited. What it was: its process id and how many commands it answered, or
 * null when none was running.
 */
export async function endExiftool(): Promise<{ pid: number; commands: number } | null> {
  const running = kept;
  if (!running) return null;
  kept = null;
  running.child.stdin.end();
  hold(running, true);
  await running.exited;
  return { pid: running.child.pid!, commands: running.commands };
}
