/**
 * The library's book of model options closed while a refresh is still fetching (a model's first
 * use in the window, started in the background, when the library is moved or removed): `close`
 * waits for the fetch to end, and what that fetch read is kept nowhere: no file, no folder made
 * again, nothing in use. The fetch is real HTTP to the demo's fal dialect on loopback, held at its
 * start by a gate the test opens (the fault injected on purpose).
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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

describe('the book of model options closed while a fetch is held', () => {
  it('waits for the fetch, then keeps nothing of it', async () => {
    const service = await falDemo();
    const home = await tempFolder('options-close');
    cleanups.push(() => removeFolder(home));
    const dataDir = join(home, 'data');
    const { held, open, started } = heldFetch();
    const options = await openModelOptions(dataDir, held, {});
    const credentials = {
      baseUrl: service.url,
      key: '',
      keyFingerprint: '',
      provider: 'fal' as const,
    };
    const refreshing = options.refresh(credentials, MODEL);
    await started;

    let closed = false;
    const closing = options.close().then(() => (closed = true));
    // Every settled promise has run: close is still waiting for the held fetch.
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);

    open();
    await closing;
    // The fetch itself went through: the service answered the schema, read after close began.
    expect(await refreshing).toEqual({ ok: true });
    expect(service.log.requests.filter((entry) => entry.route === 'schema')).toHaveLength(1);
    expect(options.kept()).toEqual([]);
    expect(await exists(dataDir), 'the data folder is not made again').toBe(false);
    // A refresh asked after close keeps nothing either.
    expect(await options.refresh(credentials, MODEL)).toEqual({ ok: true });
    expect(await exists(dataDir)).toBe(false);
    const reopened = await openModelOptions(dataDir, fetch, {});
    expect(reopened.kept()).toEqual([]);
  });
});
