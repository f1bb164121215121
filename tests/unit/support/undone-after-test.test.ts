/**
 * tests/support/undone-after-test.ts: what a test changes of its process through it is undone
 * when the test ends, also when the test failed; outside a test it changes nothing. The tests run
 * in order: each later one looks at what the one before left; the one marked `fails` fails on
 * purpose (vitest counts it passed only if it does fail).
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  onProcessForTest,
  requireCacheForTest,
  setEnvForTest,
} from '../../support/undone-after-test';

const NAME = 'PICTOR_UNDONE_AFTER_TEST_SAMPLE';
const { cache } = createRequire(import.meta.url);
/** A module id no one requires: only this file's tests put it into the cache. */
const ID = createRequire(import.meta.url).resolve('./undone-after-test.test.ts');
const listener = (reason: unknown): void => void reason;
const listening = (): boolean =>
  process.listeners('unhandledRejection').includes(listener) ||
  process.listeners('uncaughtException').includes(listener);

/** What calling `change` while the file is collected did: it threw, and changed nothing. */
const atCollection = [
  () => setEnvForTest(NAME, 'collected'),
  () => onProcessForTest('uncaughtException', listener),
  () => requireCacheForTest(ID, { collected: true }),
].map((change) => {
  try {
    change();
    return 'changed';
  } catch {
    return 'threw';
  }
});
const leftAtCollection = { env: process.env[NAME], listening: listening(), cached: ID in cache };

describe('undone after the test', () => {
  it('throws outside a test, before it changes anything', () => {
    expect(atCollection).toEqual(['threw', 'threw', 'threw']);
    expect(leftAtCollection).toEqual({ env: undefined, listening: false, cached: false });
  });

  it.fails('makes each change for the test, which then fails', () => {
    setEnvForTest(NAME, 'first');
    setEnvForTest(NAME, 'second');
    onProcessForTest('unhandledRejection', listener);
    onProcessForTest('uncaughtException', listener);
    requireCacheForTest(ID, { first: true });
    requireCacheForTest(ID, { second: true });
    expect(process.env[NAME]).toBe('second');
    expect(process.listeners('unhandledRejection')).toContain(listener);
    expect(process.listeners('uncaughtException')).toContain(listener);
    expect(createRequire(import.meta.url)(ID)).toEqual({ second: true });
    throw new Error('the test fails on purpose, its changes made');
  });

  it('finds every change undone after the failed test, the earlier ones too', () => {
    expect(process.env[NAME]).toBeUndefined();
    expect(NAME in process.env).toBe(false);
    expect(listening()).toBe(false);
    expect(ID in cache).toBe(false);
  });

  it('gives back the value a variable had before the test', () => {
    const home = process.env['HOME'];
    setEnvForTest('HOME', '/nowhere');
    expect(process.env['HOME']).toBe('/nowhere');
    // Read in the next test.
    homeBefore = home;
  });

  it('finds it given back', () => {
    expect(process.env['HOME']).toBe(homeBefore);
  });
});

let homeBefore: string | undefined;
