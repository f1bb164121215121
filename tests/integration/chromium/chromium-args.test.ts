/**
 * The Chromium every browser test launches keeps Playwright's own disabled features: Chromium
 * keeps only the last `--disable-features` switch, and ours comes after Playwright's, so ours
 * must name every feature Playwright's did (tests/e2e/harness/host.ts). Read from the command
 * line Chromium was really started with.
 */
import { chromium } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/harness/host';

function featuresOf(argv: readonly string[], flag: string): string[][] {
  return argv
    .filter((arg) => arg.startsWith(`${flag}=`))
    .map((arg) =>
      arg
        .slice(flag.length + 1)
        .split(',')
        .filter(Boolean),
    );
}

describe('the Chromium of the browser tests', () => {
  it('is started with one disabled-features list that keeps all of Playwright’s and adds ours', async () => {
    const server = await chromium.launchServer({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    });
    try {
      const argv = server.process().spawnargs;
      const lists = featuresOf(argv, '--disable-features');
      // Playwright's own list and ours: at least two, or this test reads nothing.
      expect(lists.length).toBeGreaterThanOrEqual(2);
      const kept = lists.at(-1)!;
      for (const earlier of lists.slice(0, -1)) {
        expect(earlier.filter((feature) => !kept.includes(feature))).toEqual([]);
      }
      expect(kept).toContain('WebUIOmniboxPopup');
    } finally {
      await server.close();
    }
  });
});
