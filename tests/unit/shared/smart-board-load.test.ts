/**
 * Loading smart-board.ts builds none of its zod schemas: the history loads it on every start (a
 * one-record command of the CLI too), and only what reads or checks a smart board's rules needs
 * them. zod's post-processor counts every schema built.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
// What smart-board.ts imports, loaded first: the schemas they build are not this file's.
import '../../../shared/i18n/sentence';
import '../../../shared/domain/limits';
import '../../../shared/domain/plain-object';
import '../../../shared/domain/providers';
import '../../../shared/domain/task-cost';
import '../../../shared/domain/triage';

describe("smart boards' schemas", () => {
  it('are built on their first use, not when the file loads', async () => {
    let built = 0;
    z.config({ postProcessor: () => (built += 1) });
    try {
      const board = await import('../../../shared/domain/smart-board');
      expect(built).toBe(0);
      // The check itself: checking rules builds them, once.
      expect(board.checkSmartRules({ match: 'all', items: [{ kind: 'unfiled' }] }).ok).toBe(true);
      const first = built;
      expect(first).toBeGreaterThan(0);
      expect(board.smartRulesSchema().safeParse({ match: 'any', items: [] }).success).toBe(true);
      expect(built).toBe(first);
    } finally {
      z.config({ postProcessor: undefined });
    }
  });
});
