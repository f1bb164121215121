/**
 * Runs core-kill-worker.ts once (its bundle, tests/support/node-entries.ts) and kills it with
 * SIGKILL at a planned phase: after the n-th marker of the target phase plus a small random delay.
 * When the target does not come within the patience, the next marker of any phase is taken instead
 * (and counted as that phase).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { PHASES, type Phase } from './core-kill-shared';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Where and when to kill one run. */
export interface KillPlan {
  readonly target: Phase;
  /** Kill after this many markers of the target phase (1 = the first). */
  readonly occurrence: number;
  /** Milliseconds between the marker and the SIGKILL (0 = at once). */
  readonly delayMs: number;
  /** How long to wait for the target before any phase will do. */
  readonly patienceMs: number;
}

/**
 * How long a run may show no phase at all before it is killed as `idle` (a kill that interrupts
 * no work, which the test counts and refuses). Far past the patience: a worker on a saturated
 * machine can take seconds to reach its first write, and a run always has work (the service
 * keeps tasks processing), so only a worker that really does nothing waits this long.
 */
const IDLE_MS = 10_000;

export interface RunOutcome {
  /** The phase whose marker triggered the kill; `idle` when none came at all; null when not killed. */
  readonly killedAt: Phase | 'idle' | null;
  /** Markers seen per phase in this run. */
  readonly markers: Record<Phase, number>;
  /** The `done` line's JSON in finish mode. */
  readonly done: string | null;
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
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  live.add(child);
  const markers = Object.fromEntries(PHASES.map((phase) => [phase, 0])) as Record<Phase, number>;
  let killedAt: Phase | 'idle' | null = null;
  let anyPhase = false;
  let done: string | null = null;
  let stderr = '';
  const timers: NodeJS.Timeout[] = [];

  const kill = (phase: Phase | 'idle', delayMs: number): void => {
    if (killedAt !== null) return;
    killedAt = phase;
    if (delayMs <= 0) child.kill('SIGKILL');
    else timers.push(setTimeout(() => child.kill('SIGKILL'), delayMs));
  };
  const onReadyLine = async (): Promise<void> => {
    await onReady();
    child.stdin.end('go\n');
    if (!plan) return;
    timers.push(setTimeout(() => (anyPhase = true), plan.patienceMs));
    timers.push(setTimeout(() => kill('idle', 0), Math.max(IDLE_MS, plan.patienceMs * 2)));
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
    const [, name = ''] = /^phase (\w+)$/.exec(line) ?? [];
    if (!isPhase(name)) return;
    markers[name] += 1;
    if (plan && (anyPhase || (name === plan.target && markers[name] === plan.occurrence)))
      kill(name, plan.delayMs);
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
  return { killedAt, markers, done };
}
