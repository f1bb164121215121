/**
 * Child process of inline-kill.test.ts: the real core against the test's demo service, whose
 * answers carry their images inline. In `run` mode it submits one task, and its image engine
 * announces `phase check` and never answers: by then the task is recorded completed, its image
 * pending and its bytes only in the spool file, so the parent's SIGKILL lands between reading
 * the answer and saving the image. In `finish` mode it resumes with a working engine, waits until
 * nothing is left to do, closes cleanly and prints `done`.
 *
 * Started from its bundle (tests/support/node-entries.ts):
 * Usage: node inline-kill-worker.js <dataDir> <galleryDir> <serviceUrl> run|finish
 */
import { systemClock } from '../../../electron/adapters/system-clock';
import { openPictorCore } from '../../../electron/core/pictor-core';
import type { ImageEngine } from '../../../electron/ports/image-engine';
import { StaticCredentials } from '../../fakes/static-credentials';
import { testImageEngine } from '../../support/image-engine';
import { printLine as print } from '../support/print-line';
import { targetAt } from '../../support/submit-target';

/** The test engine, except that checking an image announces itself and never ends. */
const stuckEngine: ImageEngine = {
  name: testImageEngine.name,
  thumbnail: () => {
    print('phase check');
    return new Promise(() => undefined);
  },
  toPng: (bytes, maxSide) => testImageEngine.toPng(bytes, maxSide),
  renderSvgPng: (svg, size) => testImageEngine.renderSvgPng(svg, size),
  dispose: () => testImageEngine.dispose(),
};

async function main(): Promise<void> {
  const [dataDir, galleryDir, serviceUrl, mode] = process.argv.slice(2);
  if (!dataDir || !galleryDir || !serviceUrl || (mode !== 'run' && mode !== 'finish'))
    throw new Error('usage: inline-kill-worker.ts <dataDir> <galleryDir> <serviceUrl> run|finish');
  const core = await openPictorCore({
    imageEngine: mode === 'run' ? stuckEngine : testImageEngine,
    dataDir,
    galleryDir,
    fetch: (url, init) => fetch(url, init),
    credentials: new StaticCredentials(serviceUrl, 'demo'),
    clock: systemClock,
    requestTimeoutMs: 5_000,
    engine: { pollIntervalMs: 100, maxBackoffMs: 1_000 },
  });
  core.engine.start({ resume: true });
  if (mode === 'run') {
    // Killed, never closed: the stuck check keeps the process alive.
    setInterval(() => undefined, 1 << 30);
    await core.engine.submit(
      { prompt: 'an image sent inline', size: '256x256' },
      targetAt(serviceUrl),
    );
    return;
  }
  const ids = core.history.unfinished().map((record) => record.localId);
  await core.engine.whenSettled(ids);
  await core.close();
  print(`done ${JSON.stringify({ resumed: ids.length })}`);
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
