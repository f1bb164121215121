/**
 * The library's book of model options as the core closes while a refresh is still fetching (a
 * model's first use in the window, started in the background, when the app quits or the library
 * is moved): its changes pass the core's closing gate (core/base/closing-gate.ts). The close waits
 * for the refresh asked before it, whose options are kept within the close; none is written once
 * the close has resolved; a refresh asked once the close has begun is refused, nothing fetched or
 * kept. The fetch is real HTTP to the demo's fal dialect on loopback, held at its start by a gate
 * the test opens (the fault injected on purpose).
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClosingGate } from '../../../../electron/core/base';
import { openModelOptions } from '../../../../electron/core/param-schemas';
import { parseCliArgs } from '../../../../electron/demo-service/cli-args';
import { startDemoService } from '../../../../electron/demo-service/server';
import type { FetchLike } from '../../../../electron/ports/http';
import { testImageEngine } from '../../../support/image-engine';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const MODEL = 'fal-ai/flux/dev';

async function falDemo() {
  const command = parseCliArgs(['--port', '0', '--dialect', 'fal']);
  if (command.kind !== 'run') throw new Error('not a demo command');
  const service = await startDemoService({ images: testImageEngine, ...command.options });
  cleanups.push(() => service.close());
  return service;
}

/** `fetch`, each request held until `open()`; `asked` resolves when the first one is made. */
function heldFetch() {
  let open = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  let asked = () => {};
  const started = new Promise<void>((resolve) => (asked = resolve));
  const held: FetchLike = async (url, init) => {
    asked();
    await gate;
    return fetch(url, init);
  };
  return { held, open, started };
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** The rejection `promise` ends with (null when it resolves). */
function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (error: unknown) => error,
  );
}

describe('the book of model options closed while a fetch is held', () => {
  it('waits for the refresh asked before the close, keeps it within the close, refuses one after', async () => {
    const service = await falDemo();
    const home = await tempFolder('options-close');
    cleanups.push(() => removeFolder(home));
    const dataDir = join(home, 'data');
    const { held, open, started } = heldFetch();
    const gate = new ClosingGate();
    const options = await openModelOptions(dataDir, held, {}, gate);
    const credentials = {
      baseUrl: service.url,
      key: '',
      keyFingerprint: '',
      provider: 'fal' as const,
    };
    const refreshing = options.refresh(credentials, MODEL);
    await started;

    let closed = false;
    const closing = gate.close().then(() => (closed = true));
    // Every settled promise has run: the close is still waiting for the held fetch.
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    // Asked once the close has begun: refused, nothing fetched.
    const late = await rejectionOf(options.refresh(credentials, MODEL));
    expect(late).toMatchObject({ sentence: { key: 'error.library.closing' } });

    open();
    await closing;
    // The refresh asked before went through and was kept before the close resolved.
    expect(await refreshing).toEqual({ ok: true });
    expect(service.log.requests.filter((entry) => entry.route === 'schema')).toHaveLength(1);
    expect(options.kept().map((kept) => kept.model)).toEqual([MODEL]);
    expect(await exists(join(dataDir, 'model-options.json'))).toBe(true);
    // Nothing is written once the close has resolved: a first use and "None" are refused too.
    await removeFolder(dataDir);
    const after = [
      await rejectionOf(options.firstUse(credentials, 'fal-ai/other')),
      await rejectionOf(options.forget('fal', MODEL)),
    ];
    expect(after).toMatchObject([
      { sentence: { key: 'error.library.closing' } },
      { sentence: { key: 'error.library.closing' } },
    ]);
    expect(await exists(dataDir), 'the data folder is not made again').toBe(false);
    expect(service.log.requests.filter((entry) => entry.route === 'schema')).toHaveLength(1);
  });
});
