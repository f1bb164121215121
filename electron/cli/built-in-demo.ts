/**
 * The built-in demo service inside one CLI command (`--provider demo`, `pictor demo`, a compare's
 * `--target demo:fal`): the app's own demo (electron/demo-service/, as app-runtime.ts starts it),
 * on 127.0.0.1 at a free port, for as long as the command runs; one service per dialect the
 * command needs (today's contract, fal's, …), each started once. Only the demo's key goes there
 * (the CLI's credentials read no real key for a demo), and it goes nowhere else. Its tasks are
 * recorded under the demo's endpoint of their dialect (`demo:`, `demo:fal`, …: submit-target.ts),
 * so a task the command did not see finish (Ctrl+C, --timeout) is polled again by the next
 * `resume --provider demo`, or (`demo:` only) by the app: their demo makes it again from the
 * history (demo-service/recall.ts).
 */
import { DEFAULT_PROVIDER, PROVIDER_IDS, type ProviderId } from '../../shared/domain/providers';
import { demoEndpointOf, demoProviderOf } from '../../shared/domain/submit-target';
import type { TaskRecord } from '../../shared/domain/task-record';
import type { ImageEngine } from '../ports/image-engine';
import type { RecallHistory } from '../demo-service/recall';
import type { DemoService } from '../demo-service/types';

/** The app's task duration on its demo (app-runtime.ts): a few seconds, as a real service. */
const DURATION_MS = { min: 3_000, max: 8_000 };

/**
 * PICTOR_DEMO_DURATION_MS, which the app honours too (app-environment.ts): a whole number of
 * milliseconds up to ten minutes; anything else leaves the default.
 */
function demoDuration(env: NodeJS.ProcessEnv): number | { min: number; max: number } {
  const raw = env.PICTOR_DEMO_DURATION_MS;
  if (raw === undefined || !/^\d{1,6}$/.test(raw) || Number(raw) > 600_000) return DURATION_MS;
  return Number(raw);
}

/** What the demo needs of the command: its pictures' engine, the history, the environment. */
export interface BuiltInDemoHost {
  readonly images: Pick<ImageEngine, 'renderSvgPng'>;
  readonly history: RecallHistory & { unfinished(): readonly TaskRecord[] };
  readonly env: NodeJS.ProcessEnv;
}

/**
 * The dialects a command's demo speaks: those named (a compare's `demo`, `demo:fal`, …), or
 * `unfinished`: today's contract's and that of every unfinished demo task in the history, so
 * each task `resume --provider demo` continues is polled on a demo speaking its own dialect.
 */
type DemoDialects = readonly ProviderId[] | 'unfinished';

/**
 * The dialects a `--provider demo` command's demo speaks (see {@link DemoDialects}); `mcp`'s
 * speaks every one, so its compare tool can name `demo:fal` and the others.
 */
export function demoDialectsFor(command: string): DemoDialects {
  if (command === 'mcp') return PROVIDER_IDS;
  return command === 'resume' ? 'unfinished' : [DEFAULT_PROVIDER];
}

function unfinishedDialects(history: BuiltInDemoHost['history']): ProviderId[] {
  const dialects = new Set<ProviderId>([DEFAULT_PROVIDER]);
  for (const record of history.unfinished()) {
    const dialect = demoProviderOf(record.endpoint);
    if (dialect !== null) dialects.add(dialect);
  }
  return [...dialects];
}

/** The command's demo services: none running until {@link start}, closed by {@link close}. */
export class BuiltInDemo {
  private readonly services = new Map<ProviderId, DemoService>();

  constructor(private readonly dialects: DemoDialects = [DEFAULT_PROVIDER]) {}

  /** The base URL of the demo at `endpoint` (`demo:`, `demo:fal`, …) while it runs, else null. */
  urlOf(endpoint: string): string | null {
    const dialect = demoProviderOf(endpoint);
    return dialect === null ? null : (this.services.get(dialect)?.url ?? null);
  }

  /** Starts the demo speaking each of its dialects that is not running yet. */
  async start(host: BuiltInDemoHost): Promise<void> {
    const dialects =
      this.dialects === 'unfinished' ? unfinishedDialects(host.history) : this.dialects;
    // The demo's server and dialects load with the first start: every command that may run it
    // holds a BuiltInDemo, most never start one.
    const [{ startDemoService }, { recallFromHistory }] = await Promise.all([
      import('../demo-service/server'),
      import('../demo-service/recall'),
    ]);
    for (const dialect of new Set(dialects)) {
      if (this.services.has(dialect)) continue;
      const service = await startDemoService({
        host: '127.0.0.1',
        port: 0,
        dialect,
        durationMs: demoDuration(host.env),
        images: host.images,
        recall: recallFromHistory(() => host.history, demoEndpointOf(dialect)),
      });
      this.services.set(dialect, service);
    }
  }

  async close(): Promise<void> {
    const services = [...this.services.values()];
    this.services.clear();
    await Promise.all(services.map((service) => service.close()));
  }
}
