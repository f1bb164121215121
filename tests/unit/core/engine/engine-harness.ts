import { TaskEngine } from '../../../../electron/core/engine/task-engine';
import type { TaskEngineOptions } from '../../../../electron/core/engine/engine-types';
import { FakeGallery } from '../../../fakes/fake-gallery';
import { InMemoryHistory } from '../../../fakes/in-memory-history';
import { ManualClock } from '../../../fakes/manual-clock';
import { ScriptedServiceClient } from '../../../fakes/scripted-service-client';
import { StaticCredentials } from '../../../fakes/static-credentials';

export const BASE_URL = 'https://api.example.com';
export const ACCOUNTS = { 'sk-alice': 'alice', 'sk-alice-2': 'alice', 'sk-bob': 'bob' };

/** One engine over in-memory fakes and a manual clock; `restart` builds a new engine on the same data. */
export function engineHarness(options: Partial<TaskEngineOptions> = {}) {
  const clock = new ManualClock();
  const client = new ScriptedServiceClient(clock, ACCOUNTS);
  const history = new InMemoryHistory();
  const gallery = new FakeGallery();
  const credentials = new StaticCredentials(BASE_URL, 'sk-alice');
  let ids = 0;
  const build = (): TaskEngine =>
    new TaskEngine({
      client,
      history,
      gallery,
      credentials,
      clock,
      random: () => 0.5,
      newId: () => `local-${++ids}`,
      options,
    });
  const harness = {
    clock,
    client,
    history,
    gallery,
    credentials,
    engine: build(),
    /** Stops the engine (as a crash would, without any goodbye) and starts a new one on the same data. */
    async restart(startOptions: { resume?: boolean } = {}): Promise<TaskEngine> {
      void harness.engine.stop();
      harness.engine = build();
      harness.engine.start(startOptions);
      return harness.engine;
    },
  };
  return harness;
}
