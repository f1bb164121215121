/**
 * What a new IPC channel costs (tests/support/channel-cost.ts): npm test's typecheck finds it in
 * a program reusing its own trees and records it (tests/support/dead-exports-cache.ts); for
 * files changed since, the test finds it itself.
 */
import { describe, expect, it } from 'vitest';
import { filesFailingAfter, withDummyChannel } from '../../support/channel-cost';
import { recordedFact } from '../../support/dead-exports-cache';

// A type check of the files that import the IPC layer only: no wait, only work (minutes at load).
const PROGRAM_MS = 900_000;

describe('what a new IPC channel costs', () => {
  it(
    'a request and an event added to the contract fail to compile in at most 4 files, none of them a test',
    () => {
      const root = process.cwd();
      const failing =
        recordedFact(root, 'channelCost') ?? filesFailingAfter(root, withDummyChannel);
      // The contract itself (its channel names must be listed in channels.ts) and main's wiring
      // (the handler) fail, as they must; the interceptor is built from the contract's keys.
      expect(failing).toContain('shared/ipc/contract.ts');
      expect(failing).toContain('electron/ipc/wire-app.ts');
      expect(failing.length, failing.join(', ')).toBeLessThanOrEqual(4);
      // No test either, the test double least of all: each takes the channels from the contract.
      // (A program of the IPC files alone lacked the declarations other files add to a module's
      // types, a global setup's `declare module 'vitest'`, and counted a test that needed them.)
      expect(failing.filter((file) => file.startsWith('tests/'))).toEqual([]);
    },
    PROGRAM_MS,
  );
});
