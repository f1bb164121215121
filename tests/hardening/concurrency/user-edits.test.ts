/**
 * A favourite set in one process on a task another process is polling survives that process's
 * later writes (the app and a CLI command on one library). Without taking the edit
 * into its live copy, the polling process's completion would write the old favourite back.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { openPictorCore, type PictorCore } from '../../../electron/core/pictor-core';
import { QUIRKY_KEYS, startQuirkyService, type QuirkyService } from '../../fakes/quirky-service';
import { StaticCredentials } from '../../fakes/static-credentials';
import { testImageEngine } from '../../support/image-engine';
import { UNTIL } from '../../support/waits';
import { targetAt } from '../../support/submit-target';
import { bundledCoreWorkers } from '../../support/bundled-history-worker';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let service: QuirkyService | undefined;
const cores: PictorCore[] = [];
let dir: string | undefined;
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
  await service?.close();
  if (dir) await removeFolder(dir);
});

async function open(dataDir: string): Promise<PictorCore> {
  const core = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir,
    galleryDir: join(dataDir, 'gallery'),
    fetch,
    credentials: new StaticCredentials(service!.baseUrl, QUIRKY_KEYS.alice),
    clock: systemClock,
    engine: { pollIntervalMs: 100 },
    ...bundledCoreWorkers(),
  });
  cores.push(core);
  return core;
}

describe('a user edit in one process on a task another process polls', () => {
  it('is kept when the polling process writes the task again (completion)', async () => {
    service = await startQuirkyService({ durationMs: 1_500 });
    dir = await tempFolder('user-edits');
    const cli = await open(dir);
    cli.engine.start({ resume: false });
    const app = await open(dir);
    app.engine.start({ resume: true });
    const [task] = await cli.engine.submit(
      { prompt: 'a lighthouse to keep' },
      targetAt(service!.baseUrl),
    );
    const localId = task!.localId;
    await vi.waitFor(() => expect(cli.engine.get(localId)?.status).toBe('processing'), UNTIL);
    app.engine.edit(localId, (record) => ({ ...record, favourite: true }));
    const [done] = await cli.engine.whenSettled([localId]);
    expect(done?.status).toBe('completed');
    expect(service.polls(done!.taskId!).length).toBeGreaterThan(1);
    expect(cli.history.get(localId)?.favourite).toBe(true);
    expect(app.history.get(localId)?.favourite).toBe(true);
  });
});
