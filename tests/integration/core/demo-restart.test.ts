/**
 * A task on the app's built-in demo outlives the launch that sent it. The demo keeps its tasks in
 * memory and starts on a new port each launch, so a task still processing when the app quit used
 * to be answered "no such task" by the next launch's demo and end `not_found`. The next launch's
 * demo now makes it again from the history (demo-service/recall.ts): it completes, its picture is
 * saved, and it was sent once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AppRuntime } from '../../../electron/app/app-runtime';
import { startTestRuntime } from '../../support/app-runtime';
import { targetOf } from '../../support/submit-target';
import { UNTIL } from '../../support/waits';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function launch(dir: string, durationMs: number): Promise<AppRuntime> {
  const runtime = await startTestRuntime(dir, { demo: { durationMs }, pollIntervalMs: 100 });
  cleanups.push(() => runtime.close());
  return runtime;
}

describe('a demo task across a restart of the app', () => {
  it('is completed by the next launch, not lost as not found', async () => {
    const dir = await tempFolder('demo-restart');
    cleanups.push(() => removeFolder(dir));
    const first = await launch(dir, 1_500);
    first.core.engine.start();
    const [sent] = await first.core.engine.submit(
      { prompt: 'a lighthouse at dusk', size: '64x64' },
      targetOf(first.credentials),
    );
    await expect.poll(() => first.core.engine.get(sent!.localId)?.status, UNTIL).toBe('processing');
    const { taskId } = first.core.engine.get(sent!.localId)!;
    expect(first.demo.log.submits).toHaveLength(1);
    await first.close();

    const second = await launch(dir, 1_500);
    second.core.engine.start();
    const [done] = await second.core.engine.whenSettled([sent!.localId]);
    expect(done).toMatchObject({
      taskId,
      endpoint: 'demo:',
      status: 'completed',
      images: [{ state: 'saved', width: 64, height: 64 }],
    });
    // Polled again, never sent again.
    expect(second.demo.log.submits).toHaveLength(0);
    expect(second.demo.log.polls.length).toBeGreaterThan(0);
  });
});
