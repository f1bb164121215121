/**
 * The store's file watch (adapters/store-watch.ts) on real files and the real one-second look:
 * a change is reported whenever it is made, the first one too, made as the watch begins (a
 * `pictor` command's change while the app starts), which `fs.watchFile` took for its starting
 * state and never reported.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { watchStoreFile } from '../../../electron/adapters/store-watch';
import { testFolder } from '../../support/per-test';

/** Watches `file`; `next()` resolves at the next change reported after it is asked for. */
function watched(file: string) {
  let heard = 0;
  let waiting: (() => void) | null = null;
  const watch = watchStoreFile(file, () => {
    heard += 1;
    waiting?.();
    waiting = null;
  });
  return {
    watch,
    heard: () => heard,
    next: () => new Promise<void>((resolve) => (waiting = resolve)),
  };
}

describe('watchStoreFile', () => {
  it('reports a write made in the same turn as the watch began', async () => {
    const file = join(await testFolder('store-watch'), 'settings.json');
    writeFileSync(file, '{"a":1}');
    const { watch, next, heard } = watched(file);
    const first = next();
    writeFileSync(file, '{"a":22}');
    await first;
    expect(heard()).toBe(1);
    watch.dispose();
  });

  it('reports the file made, replaced by a rename and removed, once each', async () => {
    const dir = await testFolder('store-watch');
    const file = join(dir, 'settings.json');
    const { watch, next, heard } = watched(file);
    let change = next();
    writeFileSync(file, '{"a":1}');
    await change;
    change = next();
    writeFileSync(join(dir, 'settings.json.tmp'), '{"a":1}');
    renameSync(join(dir, 'settings.json.tmp'), file);
    await change;
    change = next();
    rmSync(file);
    await change;
    expect(heard()).toBe(3);
    watch.dispose();
  });

  it('reports nothing after it is disposed', async () => {
    const file = join(await testFolder('store-watch'), 'settings.json');
    writeFileSync(file, '{}');
    const disposed = watched(file);
    disposed.watch.dispose();
    writeFileSync(file, '{"b":2}');
    // A watch begun after it hears a later change after the disposed one's first look was due.
    const later = watched(file);
    const change = later.next();
    writeFileSync(file, '{"b":333}');
    await change;
    expect(disposed.heard()).toBe(0);
    later.watch.dispose();
  });
});
