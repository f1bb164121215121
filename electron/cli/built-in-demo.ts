/**
 * The built-in demo service inside one CLI command (`--provider demo`, `pictor demo`): the app's
 * own demo (electron/demo-service/, as app-runtime.ts starts it), on 127.0.0.1 at a free port,
 * for as long as the command runs. Only the demo's key goes there (EnvCredentials in demo mode
 * reads no SERVICE_API_KEY at all), and it goes nowhere else. Its tasks are recorded under
 * `demo:`, so a task the command did not see finish (Ctrl+C, --timeout) is polled again by the
 * next `resume --provider demo`, or by the app: their demo makes it again from the history
 * (demo-service/recall.ts).
 */
import type { ImageEngine } from '../ports/image-engine';
import { recallFromHistory, type RecallHistory } from '../demo-service/recall';
import { startDemoService } from '../demo-service/server';
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
  readonly history: RecallHistory;
  readonly env: NodeJS.ProcessEnv;
}

/** The command's demo service: not running until {@link start}, closed by {@link close}. */
export class BuiltInDemo {
  private service: DemoService | null = null;

  /** Its base URL while it runs (where `demo:` tasks go), else null. */
  url(): string | null {
    return this.service?.url ?? null;
  }

  async start(host: BuiltInDemoHost): Promise<void> {
    if (this.service !== null) return;
    this.service = await startDemoService({
      host: '127.0.0.1',
      port: 0,
      durationMs: demoDuration(host.env),
      images: host.images,
      recall: recallFromHistory(() => host.history),
    });
  }

  async close(): Promise<void> {
    const service = this.service;
    this.service = null;
    await service?.close();
  }
}
