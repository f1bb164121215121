/**
 * The attacker of the check-then-open race at its best, made deterministic: it sees every file
 * call the code under test makes and swaps a folder for a link to an outside twin exactly when
 * that helps it. Every `open`, and every `lstat` or `stat` of a path below the folder, goes
 * through the link; every other call (the folder's own `lstat`, `realpath`, `readlink`,
 * `readdir`) sees the real folder. So each check, made alone, passes, and every open leads out.
 *
 * The calls are intercepted on `fs.promises` (and on Node's ESM view of it, so named imports see
 * the spies too), run one at a time, each after the swap it wants. Handle methods (`fstat`,
 * `read`) are not intercepted: they act on what was opened.
 */
import { promises as fsp } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { sep } from 'node:path';
import { vi, type MockInstance } from 'vitest';
import type { Containment } from '../../electron/core/fs/open-inside';

/** The containments this OS can run: the descriptor's path needs Linux's `/proc`. */
export const CONTAINMENTS: readonly Containment[] =
  process.platform === 'linux' ? ['descriptor', 'walk'] : ['walk'];

export interface ScriptedSwaps {
  /** Calls that went through the link (an attack that never struck proves nothing). */
  linked(): number;
  /** Ends the interception and puts the real folder back. */
  restore(): Promise<void>;
}

type Name = 'open' | 'lstat' | 'stat' | 'realpath' | 'readlink' | 'readdir';
type Call = (...args: unknown[]) => Promise<unknown>;

const THROUGH_LINK: ReadonlySet<Name> = new Set(['open', 'lstat', 'stat']);

/** Swaps `folder` for a link to `outside` around each call that gains from it (see above). */
export function scriptSwaps(folder: string, outside: string): ScriptedSwaps {
  const real = {
    rename: fsp.rename,
    symlink: fsp.symlink,
    unlink: fsp.unlink,
  };
  const away = `${folder}.swapped-away`;
  let isLink = false;
  let linked = 0;
  let turn: Promise<unknown> = Promise.resolve();
  const become = async (link: boolean) => {
    if (link === isLink) return;
    if (link) {
      await real.rename(folder, away);
      await real.symlink(outside, folder, 'dir');
    } else {
      await real.unlink(folder);
      await real.rename(away, folder);
    }
    isLink = link;
  };
  const below = (path: unknown) => String(path).startsWith(`${folder}${sep}`);
  const spies: MockInstance[] = [];
  for (const name of ['open', 'lstat', 'stat', 'realpath', 'readlink', 'readdir'] as Name[]) {
    const original = fsp[name].bind(fsp) as Call;
    const spy = vi.spyOn(fsp, name).mockImplementation(((path: unknown, ...rest: unknown[]) => {
      const link = THROUGH_LINK.has(name) && below(path);
      const run = turn.then(async () => {
        await become(link);
        if (link) linked += 1;
        return original(path, ...rest);
      });
      turn = run.catch(() => undefined);
      return run;
    }) as never);
    spies.push(spy as MockInstance);
  }
  syncBuiltinESMExports();
  return {
    linked: () => linked,
    restore: async () => {
      for (const spy of spies) spy.mockRestore();
      syncBuiltinESMExports();
      await turn;
      await become(false);
    },
  };
}
