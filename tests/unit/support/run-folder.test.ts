/**
 * A run's folder (tests/support/run-folder.ts), the one way the test build and the Node entries'
 * bundles are made once and reused: the first acquirer makes and names it, a later one checks and
 * takes it, and only the maker removes it.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireRunFolder } from '../../support/run-folder';
import { TempFolders, removeFolder } from '../../support/temp-folders';

const VARIABLE = 'PICTOR_RUN_FOLDER_TEST';
const made = new TempFolders();
afterEach(async () => {
  await made.removeAll();
});

/** A maker of real temporary folders that counts its calls. */
function maker(): {
  make: () => Promise<{ dir: string; dispose(): Promise<void> }>;
  calls: () => number;
} {
  let calls = 0;
  return {
    calls: () => calls,
    make: async () => {
      calls += 1;
      const dir = await made.make('run-folder-test');
      return { dir, dispose: () => removeFolder(dir) };
    },
  };
}

const accept = (): void => {};

describe('acquireRunFolder', () => {
  it('makes the folder once: the first acquirer names it, the next takes it, only the maker removes it', async () => {
    const env: NodeJS.ProcessEnv = {};
    const { make, calls } = maker();
    const first = await acquireRunFolder(VARIABLE, accept, make, env);
    expect(first.given).toBe(false);
    expect(env[VARIABLE]).toBe(first.dir);
    const checked: string[] = [];
    const second = await acquireRunFolder(VARIABLE, (dir) => checked.push(dir), make, env);
    expect(second).toMatchObject({ dir: first.dir, given: true });
    expect(checked).toEqual([first.dir]);
    expect(calls()).toBe(1);
    await second.release();
    expect(existsSync(first.dir)).toBe(true);
    expect(env[VARIABLE]).toBe(first.dir);
    await first.release();
    expect(existsSync(first.dir)).toBe(false);
    expect(env).toEqual({});
  });

  it('refuses a named folder its check refuses, and makes none in its place', async () => {
    const { make, calls } = maker();
    const env = { [VARIABLE]: tmpdir() };
    await expect(
      acquireRunFolder(
        VARIABLE,
        () => {
          throw new Error('a part is missing');
        },
        make,
        env,
      ),
    ).rejects.toThrow(/a part is missing/);
    expect(calls()).toBe(0);
    expect(env).toEqual({ [VARIABLE]: tmpdir() });
  });

  it('leaves the variable to whoever named another folder since, and still removes its own', async () => {
    const env: NodeJS.ProcessEnv = {};
    const acquired = await acquireRunFolder(VARIABLE, accept, maker().make, env);
    env[VARIABLE] = '/elsewhere';
    await acquired.release();
    expect(env[VARIABLE]).toBe('/elsewhere');
    expect(existsSync(acquired.dir)).toBe(false);
  });
});
