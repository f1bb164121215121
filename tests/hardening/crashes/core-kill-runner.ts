/**
 * Runs core-kill-worker.ts once (its bundle, tests/support/node-entries.ts) and kills it with
 * SIGKILL at a planned phase: after the n-th marker of the target phase plus a small random delay.
 * When the worker says only polls are left (`quiet`) before the target came, the target will not
 * come in this run, and the next marker of any phase is taken instead (and counted as that phase).
 *
 * Nothing here waits on the wall clock: on a loaded machine the worker gets there later, not
 * elsewhere. (A patience of 1.5 s ran out there before the worker's first request, so every kill
 * fell on the first submit of its run, leaving its tasks submit_unknown, until no task had work
 * left and every further run was idle.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { PHASES, type Phase } from './core-kill-shared';
import { REPO_ROOT } from '../../support/source-files';

/** Where and when to kill one run. */
export interface KillPlan {
  readonly target: Phase;
  /** Kill after this many markers of the target phase (1 = the first). */
  readonly occurrence: number;
  /** Milliseconds between the marker and the SIGKILL (0 = at once). */
  readonly delayMs: number;
}

export interface RunOutcome {
  /**
   * The phase whose marker triggered the kill; `idle` when the worker said it had nothing left
   * to do before the plan found a marker (a kill that interrupts no work); null when not killed.
   */
  readonly killedAt: Phase | 'idle' | null;
  /** Markers seen per phase in this run. */
  readonly markers: Record<Phase, number>;
  /** The `done` line's JSON in finish mode. */
  readonly done: string | null;
  /** Milliseconds from the start to `ready` and from `go` to the end. */
  readonly timing: { readonly toReady: number; readonly afterGo: number };
}

const live = new Set<ChildProcess>();

/** Kills a worker a failed or timed-out test left running. */
export function killLiveWorkers(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

function isPhase(name: string): name is Phase {
  return (PHASES as readonly string[]).includes(name);
}

/**
 * Starts the worker with `args`; `onReady` runs after the core opened and before it starts work
 * (the parent inspects the folders there). With a plan the run must end by our SIGKILL; without
 * one it must exit 0.
 */
export async function runWorker(
  args: readonly string[],
  plan: KillPlan | null,
  onReady: () => Promise<void>,
): Promise<RunOutcome> {
  const child = spawn(process.execPath, [...nodeEntryArgs('core-kill-worker'), ...args], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  live.add(child);
  const markers = Object.fromEntries(PHASES.map((phase) => [phase, 0])) as Record<Phase, number>;
  let killedAt: Phase | 'idle' | null = null;
  let anyPhase = false;
  let done: string | null = null;
  let stderr = '';
  const timers: NodeJS.Timeout[] = [];
  const started = Date.now();
  let ready = started;
  let go = started;

  const kill = (phase: Phase | 'idle', delayMs: number): void => {
    if (killedAt !== null) return;
    killedAt = phase;
    if (delayMs <= 0) child.kill('SIGKILL');
    else timers.push(setTimeout(() => child.kill('SIGKILL'), delayMs));
  };
  const onReadyLine = async (): Promise<void> => {
    ready = Date.now();
    await onReady();
    go = Date.now();
    child.stdin.end('go\n');
  };
  const onLine = (line: string): void => {
    if (line === 'ready') {
      onReadyLine().catch((error: unknown) => {
        stderr += `onReady failed: ${String(error)}\n`;
        child.kill('SIGKILL');
      });
      return;
    }
    if (line.startsWith('done ')) done = line.slice(5);
    // Only polls are left: the target will not come (core-kill-worker.ts).
    if (line === 'quiet') anyPhase = true;
    // Not even a poll is left: nothing for a kill to interrupt.
    if (line === 'settled' && plan) kill('idle', 0);
    const [, name = ''] = /^phase (\w+)$/.exec(line) ?? [];
    if (!isPhase(name)) return;
    markers[name] += 1;
    const due = name === plan?.target && markers[name] === plan.occurrence;
    if (plan && (due || anyPhase)) kill(name, plan.delayMs);
  };

  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    lines.forEach(onLine);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.on('error', () => undefined); // the child may be gone before 'go' arrives
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  timers.forEach(clearTimeout);
  live.delete(child);

  if (plan && signal !== 'SIGKILL')
    throw new Error(`worker ended with ${String(code ?? signal)} before its kill: ${stderr}`);
  if (!plan && code !== 0)
    throw new Error(`worker ended with ${String(code ?? signal)}: ${stderr}`);
  return {
    killedAt,
    markers,
    done,
    timing: { toReady: ready - started, afterGo: Date.now() - go },
  };
}
