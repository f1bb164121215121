/**
 * A hard spending cap through the real core and the app's `tasks:submit` handler: the submit that
 * would pass it is refused in main before anything is stored or sent, with the cap's sentence for
 * the window; a soft cap lets it through. The same check the CLI gets (tests/integration/cli).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { openPictorCore } from '../../../electron/core/pictor-core';
import { bundledCoreWorkers } from '../../support/bundled-history-worker';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { taskHandlers } from '../../../electron/ipc/task-handlers';
import { QUIRKY_KEYS, startQuirkyService } from '../../fakes/quirky-service';
import { StaticCredentials } from '../../fakes/static-credentials';
import { testImageEngine } from '../../support/image-engine';
import { ipcCaller, okValue } from '../../support/ipc';
import { targetAt } from '../../support/submit-target';
import { UNTIL } from '../../support/waits';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function app() {
  const service = await startQuirkyService({ durationMs: 100 });
  const dir = await tempFolder('capped');
  const core = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir: join(dir, 'data'),
    galleryDir: join(dir, 'gallery'),
    fetch: (url, init) => fetch(url, init),
    credentials: new StaticCredentials(service.baseUrl, QUIRKY_KEYS.alice),
    clock: systemClock,
    requestTimeoutMs: 2_000,
    timeZone: 'Europe/Berlin',
    engine: { pollIntervalMs: 100, maxBackoffMs: 200 },
    ...bundledCoreWorkers(),
  });
  cleanups.push(async () => {
    await core.close();
    await service.close();
    await removeFolder(dir);
  });
  core.engine.start();
  const deps = {
    core,
    chooseFolder: async () => null,
    emit: () => undefined,
  } as unknown as Parameters<typeof taskHandlers>[0];
  const call = ipcCaller(taskHandlers(deps) as IpcHandlers);
  const submit = (count: number) =>
    call('tasks:submit', {
      request: { prompt: 'a priced harbour', size: '64x64' },
      target: targetAt(service.baseUrl),
      count,
    });
  return { core, service, submit };
}

describe('a submit under a spending cap, from the window', () => {
  it('is refused in main with the hard cap’s sentence, nothing stored or sent', async () => {
    const { core, service, submit } = await app();
    core.costs.setPrice({
      provider: 'pictor',
      model: '',
      unit: 'EUR',
      basis: 'image',
      micros: 250_000,
    });
    core.costs.setCap({
      period: 'day',
      unit: 'EUR',
      provider: null,
      kind: 'hard',
      micros: 1_000_000,
    });
    core.costs.setCap({
      period: 'month',
      unit: 'EUR',
      provider: 'pictor',
      kind: 'soft',
      micros: 100,
    });
    const first = okValue(await submit(3));
    expect(first).toHaveLength(3);
    const refused = await submit(2);
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'bad_input',
        sentence: {
          key: 'error.costs.hardCap',
          params: {
            period: 'day',
            cap: '1',
            unit: 'EUR',
            scope: 'all',
            spent: '0.75',
            adding: '0.5',
          },
        },
        // The same refusal as data, for the window to word itself (with links to the fixes).
        capRefusal: {
          cap: { period: 'day', unit: 'EUR', provider: null, kind: 'hard', micros: 1_000_000 },
          verdict: 'over',
          spentMicros: 750_000,
          addingMicros: 500_000,
          missing: [],
        },
      },
    });
    expect(core.costs.entries()).toHaveLength(3);
    await expect.poll(() => service.submits().length, UNTIL).toBe(3);
    // One more fits exactly (0.75 + 0.25 = 1): a cap is passed only when exceeded.
    expect(okValue(await submit(1))).toHaveLength(1);
  });
});
