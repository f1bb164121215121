/**
 * Load beside a benchmark: child processes that spin on the CPU until stopped, so a row can be
 * read on a busy machine as well as an idle one. Each child is stopped by its own handle.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** A spinning child's program: it reports once it spins, then never yields. */
const SPIN = "process.stdout.write('spinning\\n'); for (;;) {}";

export interface BusyLoops {
  /** How many children spin. */
  readonly count: number;
  /** Stops every child and waits for each to exit. */
  stop(): Promise<void>;
}

/** Starts `count` spinning children and resolves once each of them spins. */
export async function startBusyLoops(count: number): Promise<BusyLoops> {
  const children: ChildProcess[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, 'exit');
        child.kill('SIGKILL');
        await exited;
      }),
    );
  };
  try {
    for (let n = 0; n < count; n += 1) {
      const child = spawn(process.execPath, ['-e', SPIN], { stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(child);
      const [line] = (await Promise.race([
        once(child.stdout!, 'data'),
        once(child, 'exit').then(() => {
          throw new Error('a busy loop exited before it spun');
        }),
      ])) as [Buffer];
      if (!line.toString().startsWith('spinning'))
        throw new Error('a busy loop said something else');
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { count, stop };
}
