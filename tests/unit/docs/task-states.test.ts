/**
 * The README's "A task's life" names exactly the task states of the record
 * (shared/domain/task-record.ts): every status, and every reason a processing task is on hold. A
 * state added or renamed cannot leave the paragraph describing the old set.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOLD_REASONS, TASK_STATUSES } from '../../../shared/domain/task-record';
import { REPO_ROOT } from '../../support/source-files';

/** The states the paragraph names: before "A processing task may be on hold", and after it. */
function statesIn(readme: string): { statuses: string[]; holds: string[] } {
  const text = readme.replace(/\s+/g, ' ');
  const start = text.indexOf("**A task's life.**");
  const hold = text.indexOf('A processing task may be on hold', start);
  const end = text.indexOf(' - **', hold);
  const named = (part: string): string[] =>
    [...new Set([...part.matchAll(/`([a-z_]+)`/g)].map(([, word]) => word!))].filter(
      (word) => word !== 'sent',
    );
  if (start === -1 || hold === -1) return { statuses: [], holds: [] };
  return { statuses: named(text.slice(start, hold)), holds: named(text.slice(hold, end)) };
}

describe("the README's task states", () => {
  it('are the statuses and hold reasons of the record', () => {
    const { statuses, holds } = statesIn(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));
    expect(statuses.sort()).toEqual([...TASK_STATUSES].sort());
    expect(holds.sort()).toEqual([...HOLD_REASONS].sort());
  });

  it('are read as written', () => {
    const page = [
      "- **A task's life.** `submitting` → `failed`, each attempt marked `sent`. A processing task",
      '  may be on hold: `timed_out`.',
      '- **Next.** `other`',
    ].join('\n');
    expect(statesIn(page)).toEqual({ statuses: ['submitting', 'failed'], holds: ['timed_out'] });
  });
});
