import { TaskEngine } from '../../../../electron/core/engine/task-engine';
import type { TaskEngineOptions } from '../../../../electron/core/engine/engine-types';
import type { Clock } from '../../../../electron/ports/clock';
import { FakeGallery } from '../../../fakes/fake-gallery';
import { InMemoryHistory } from '../../../fakes/in-memory-history';
import { ManualClock } from '../../../fakes/manual-clock';
import { ScriptedServiceClient } from '../../../fakes/scripted-service-client';
import { StaticCredentials } from '../../../fakes/static-credentials';
import { targetAt } from '../../../support/submit-target';

export const BASE_URL = 'https://api.example.com';
/** Where the harness's submits go: today's contract at {@link BASE_URL}. */
export const TARGET = targetAt(BASE_URL);
export const ACCOUNTS = { 'sk-alice': 'alice', 'sk-alice-2': 'alice', 'sk-bob': 'bob' };

/** Methods of the history a dead process can no longer call: its writes never land. */
const HISTORY_WRITES = new Set(['put', 'putMany', 'editMany', 'delete']);

/**
 * `target` as one process sees it: once `dead()` (the process crashed), nothing it starts has any
 * effect. History writes are dropped, calls to the service or the gallery never answer (the
 * process is gone, so nothing it awaited goes on), and its timers never fire. Reads still answer:
 * a dead process does not read, so they change nothing.
 */
function asProcess<T extends object>(
  target: T,
  dead: () => boolean,
  kind: 'history' | 'io' | 'clock',
): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (kind === 'clock' && property === 'setTimeout') {
          const [callback, ms] = args as [() => void, number];
          return (value as Clock['setTimeout']).call(object, () => dead() || callback(), ms);
        }
        if (!dead()) return (value as (...a: unknown[]) => unknown).apply(object, args);
        if (kind === 'io') return new Promise(() => undefined);
        if (kind === 'history' && HISTORY_WRITES.has(String(property)))
          return property === 'editMany' ? [] : undefined;
        return (value as (...a: unknown[]) => unknown).apply(object, args);
      };
    },
  });
}

/**
 * One engine over in-memory fakes and a manual clock; `restart` crashes it and builds a new
 * engine on the same data.
 */
export function engineHarness(options: Partial<TaskEngineOptions> = {}) {
  const clock = new ManualClock();
  const client = new ScriptedServiceClient(clock, ACCOUNTS);
  const history = new InMemoryHistory();
  const gallery = new FakeGallery();
  const credentials = new StaticCredentials(BASE_URL, 'sk-alice');
  let ids = 0;
  /** The running process's generation; a crash starts the next one. */
  let generation = 0;
  const build = (): TaskEngine => {
    const mine = generation;
    const dead = () => generation !== mine;
    return new TaskEngine({
      client: asProcess(client, dead, 'io'),
      history: asProcess(history, dead, 'history'),
      gallery: asProcess(gallery, dead, 'io'),
      credentials,
      clock: asProcess(clock, dead, 'clock'),
      random: () => 0.5,
      newId: () => `local-${++ids}`,
      options,
    });
  };
  const harness = {
    clock,
    client,
    history,
    gallery,
    credentials,
    target: TARGET,
    engine: build(),
    /**
     * Crashes the engine's process (no stop, no flush: what it had not written is lost, and
     * nothing it started goes on) and starts a new engine on the same data.
     */
    async restart(startOptions: { resume?: boolean } = {}): Promise<TaskEngine> {
      generation += 1;
      harness.engine = build();
      harness.engine.start(startOptions);
      return harness.engine;
    },
  };
  return harness;
}
