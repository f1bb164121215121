/**
 * A compromised page that sends its largest requests side by side. Each request the contract
 * takes is bounded, but nothing bounded how many main holds at once: a mask is up to 64 MiB of
 * PNG sent as base64 (89.5 M characters), main decodes it and the input store takes additions one
 * at a time, so every mask sent at once waited there with its text and its bytes. Twenty-four
 * masks of 12 MiB held 24 decoded copies (and a page that sends a hundred of the largest holds
 * gigabytes: main ends out of memory, the library with it). Now the bridge counts what the page's
 * requests in flight hold (their input's characters and values) and refuses a request that would
 * pass the bound while others run, with a sentence; a request alone is always taken. Through the
 * real bridge (registered on a stand-in ipcMain) and the real handlers of a real AppRuntime, real
 * PNGs and files; what the handlers hold at once is counted from the inputs they are running with,
 * not measured in memory.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import type { RequestChannel, Result } from '../../../shared/ipc/contract';
import { okValue } from '../../support/ipc';
import { wiredIpc } from '../../support/wired-ipc';
import { bridgedPage } from './bridged-page';
import { paddedPng, solidPng as solid } from './padded-png';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** What main may hold of the page's requests in flight, in characters (ipc-main-bridge.ts). */
const HELD_BOUND = 256 * 1024 * 1024;
/** The padding of each mask: twelve MiB, 16.7 M characters of base64. */
const PADDING = 12 * 1024 * 1024;
const AT_ONCE = 24;
const BUSY = 'error.library.tooManyRequests';

/** The characters and values a handler was given: what it holds while it runs. */
function sizeOf(value: unknown): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') size += item.length;
    else if (item !== null && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item)) stack.push(key, inner);
    } else size += 1;
  }
  return size;
}

/** A mask at the source's size, padded to hold `padding` bytes more, as base64. */
async function paddedMask(side: number, padding: number, fill: number): Promise<string> {
  return (await paddedPng(side, 255, padding, fill)).toString('base64');
}

async function app() {
  const env: Record<string, string | undefined> = {};
  const { dir, wiring } = await wiredIpc(cleanups, {
    prefix: 'pictor-held-input-',
    env,
    wiring: (os) => ({ inputDialogs: os.inputDialogs }),
  });
  // What the handlers hold at once, and the most they held.
  const held = { now: 0, most: 0 };
  const counted = new Proxy(wiring.handlers, {
    get: (target, channel: string) => {
      const handler = target[channel as RequestChannel] as (...args: unknown[]) => unknown;
      return async (input: unknown, context: unknown) => {
        const size = sizeOf(input);
        held.now += size;
        held.most = Math.max(held.most, held.now);
        try {
          return await handler(input, context);
        } finally {
          held.now -= size;
        }
      };
    },
  }) as IpcHandlers;
  const request = bridgedPage(counted, cleanups);
  const path = join(dir, 'photo.png');
  await writeFile(path, await solid(64, 40));
  env['PICTOR_E2E_CHOOSE_IMAGE'] = path;
  const source = (okValue(await request('inputs:pickFile')) as { image: { sha256: string } }).image
    .sha256;
  return { request, held, source };
}

const refusedAsBusy = (result: Result<unknown>): boolean =>
  !result.ok && result.error.sentence?.key === BUSY;

describe('a page’s largest requests, sent side by side', () => {
  it(`${AT_ONCE} masks of 12 MiB at once: main holds at most its bound of them, refuses the rest with a sentence, loses none`, async () => {
    const { request, held, source } = await app();
    const png = await paddedMask(64, PADDING, 7);
    const masks = await Promise.all(
      Array.from({ length: AT_ONCE }, () => request('inputs:putMask', { source, png })),
    );
    // A small request while they ran was answered.
    const small = await Promise.all([
      request('inputs:putMask', { source, png: (await solid(64, 255)).toString('base64') }),
      request('settings:get'),
    ]);
    expect(held.most, 'what the handlers held at once').toBeLessThanOrEqual(HELD_BOUND);
    const refused = masks.filter(refusedAsBusy);
    expect(masks.filter((result) => result.ok).length).toBeGreaterThanOrEqual(2);
    expect(refused.length).toBeGreaterThan(0);
    // Every mask was taken or refused as too many at once: no other failure.
    expect(masks.filter((result) => !result.ok && !refusedAsBusy(result))).toEqual([]);
    for (const result of refused) {
      if (result.ok) continue;
      expect(result.error.code).toBe('failed');
      expect(result.error.message).toMatch(/too many requests/i);
    }
    expect(small.every((result) => result.ok)).toBe(true);
    // Nothing is held after: each refused mask sent again alone is taken.
    expect(held.now).toBe(0);
    for (let index = 0; index < refused.length; index += 1) {
      expect((await request('inputs:putMask', { source, png })).ok).toBe(true);
    }
  });

  it('a request alone is taken whatever its size, and what failed is no longer counted', async () => {
    const { request, source } = await app();
    // The largest mask the contract takes, and over its bound with the rest: taken alone.
    const largest = await paddedMask(64, 60 * 1024 * 1024, 3);
    const [first, second] = await Promise.all([
      request('inputs:putMask', { source, png: largest }),
      request('inputs:putMask', { source, png: largest }),
    ]);
    expect(first.ok).toBe(true);
    expect(second.ok).toBe(true);
    // A mask of another size fails in its handler; then the bound is whole again.
    const wrong = await paddedMask(32, PADDING, 1);
    const failures = await Promise.all(
      Array.from({ length: 8 }, () => request('inputs:putMask', { source, png: wrong })),
    );
    expect(failures.every((result) => !result.ok && !refusedAsBusy(result))).toBe(true);
    const again = await Promise.all(
      Array.from({ length: 4 }, () => request('inputs:putMask', { source, png: largest })),
    );
    expect(again.filter((result) => result.ok).length).toBeGreaterThanOrEqual(2);
  });
});
