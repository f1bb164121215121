/**
 * One wired main (tests/support/wired-api.ts) for every test of a file: a runtime start is the
 * dearest part of a wired test, and a file of small tests should pay it once. Started by the
 * file's first test that asks for it and closed after the file; before each test its history is
 * emptied and the record of the page's requests cleared, so each test starts on an empty library
 * and its page hears nothing of the test before: what main still held for the previous page (task
 * changes waiting for their batch, a removal or an Undo under way) is finished and sent first, to
 * no page, as when a window closes.
 * Settings, keys, prices and the gallery folder's files are kept: a file whose tests change those
 * starts a main per test (`startWiredApp` without `main`).
 */
import { afterAll, beforeEach } from 'vitest';
import { UNTIL } from '../../support/waits';
import { startWiredApi, type WiredApi, type WiredApiOptions } from '../../support/wired-api';

/** Registers the file's main; call at the top of a test file, await the getter inside tests. */
export function sharedWiredMain(options: WiredApiOptions = {}): () => Promise<WiredApi> {
  let main: Promise<WiredApi> | undefined;
  beforeEach(async () => {
    if (!main) return;
    const wired = await main;
    // The previous test's work ends first, as before a quit: its held task changes are sent (its
    // page has gone), a removal or an Undo under way finishes (an Undo would put its tasks back
    // into the emptied history) and what waits in the trash for Undo is let go.
    await wired.wiring.beforeQuit(UNTIL.timeout);
    // A task the engine still works on (a demo task polling or downloading) is removed as the
    // app removes it (the engine's remove: its work stops, or it is watched for the ledger only),
    // else it would write itself back into the emptied history during the next test. A record a
    // test only wrote into the history leaves it directly: the engine never knew it, and its
    // seeded id (seed-000001…) comes back in the next test.
    const { history, engine } = wired.runtime.core;
    for (const localId of history.taskIds({}, Number.MAX_SAFE_INTEGER)) {
      const live = engine.live(localId);
      const working = live.polling || live.nextPollAt !== null || live.downloads > 0;
      if (working) await engine.remove(localId);
      else history.delete(localId);
    }
    // What the engine's removals sent to the page goes now, not into the next test's page.
    await wired.wiring.beforeQuit(UNTIL.timeout);
    wired.calls.length = 0;
  });
  afterAll(async () => {
    await (await main)?.close();
  });
  return () => (main ??= startWiredApi(options));
}
