import { describe, expect, it } from 'vitest';
import { filesFailingAfter, withDummyChannel } from '../../support/channel-cost';

// A type check of the files that import the IPC layer only (tests/support/channel-cost.ts).
const PROGRAM_MS = 200_000;

describe('what a new IPC channel costs', () => {
  it(
    'a request and an event added to the contract fail to compile in at most 4 files, none of them the test double',
    () => {
      const failing = filesFailingAfter(process.cwd(), withDummyChannel);
      // The contract itself (its channel names must be listed in channels.ts) and main's wiring
      // (the handler) fail, as they must; the interceptor is built from the contract's keys.
      expect(failing).toContain('shared/ipc/contract.ts');
      expect(failing).toContain('electron/ipc/wire-app.ts');
      expect(failing.length, failing.join(', ')).toBeLessThanOrEqual(4);
      expect(failing.filter((file) => file.startsWith('tests/support/'))).toEqual([]);
    },
    PROGRAM_MS,
  );
});
