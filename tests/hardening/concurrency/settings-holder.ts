/**
 * A second process holding settings.json's lock (settings-writer-worker.ts `hold`: a `pictor`
 * command caught mid-write), stopped as Ctrl+Z stops it, until told to let go: for the tests of
 * what the app does meanwhile (settings-lock-no-freeze.test.ts, faults/settings-start-locked.test.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { nodeEntryArgs } from '../../support/node-entry-args';

export interface SettingsHolder {
  /** Resumes the command, which lets go of the lock; resolves once it has. */
  release(): Promise<void>;
}

/** Starts the holder on `dataDir`'s settings; `children` gets it, for the test's cleanup. */
export async function holdSettings(
  dataDir: string,
  children: ChildProcess[],
): Promise<SettingsHolder> {
  const worker = spawn(
    process.execPath,
    [...nodeEntryArgs('settings-writer-worker'), 'hold', dataDir],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  children.push(worker);
  let out = '';
  const said = (line: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (line.test(out)) resolve();
      };
      worker.stdout.on('data', check);
      worker.once('exit', (code) => reject(new Error(`the worker ended (${code}): ${out}`)));
      check();
    });
  worker.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  await said(/holding /);
  // Stopped as Ctrl+Z stops a command: it answers nothing until resumed.
  if (process.platform !== 'win32') worker.kill('SIGSTOP');
  return {
    async release() {
      if (process.platform !== 'win32') worker.kill('SIGCONT');
      worker.stdin.write('release\n');
      await said(/released/);
    },
  };
}

/** Main's event loop watched: the longest gap between ticks, and a wait for `n` more ticks. */
export function loopWatch() {
  let last = performance.now();
  let longest = 0;
  let ticks = 0;
  const waiting: { at: number; resolve: () => void }[] = [];
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    ticks += 1;
    for (const wait of waiting.filter((w) => ticks >= w.at)) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve();
    }
  }, 5);
  return {
    ticked: (n: number) => new Promise<void>((resolve) => waiting.push({ at: ticks + n, resolve })),
    stop() {
      clearInterval(timer);
      return longest;
    },
  };
}
