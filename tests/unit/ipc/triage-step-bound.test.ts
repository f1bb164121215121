/**
 * `triage:applyEach`'s bound on a step's images: ten parts may each name up to MAX_SELECT_ALL
 * images, but a step names at most MAX_SELECT_ALL in all, and a step over it is refused from its
 * arrays' lengths before a single image ref is read (counted through the arrays' element reads).
 */
import { describe, expect, it } from 'vitest';
import { requests } from '../../../shared/ipc/contract';
import { MAX_SELECT_ALL } from '../../../shared/ipc/selection-schemas';

const schema = requests['triage:applyEach'].input;

/** `length` refs to a task, in an array that counts how many of its elements were read. */
function countedRefs(length: number, reads: { count: number }): unknown[] {
  const refs = Array.from({ length }, (_, n) => ({ localId: `task-${String(n)}`, index: 0 }));
  return new Proxy(refs, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads.count += 1;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

const change = { kind: 'flag', flag: 'reject' } as const;

describe('triage:applyEach', () => {
  it('refuses ten parts over the bound together without reading one ref', () => {
    const reads = { count: 0 };
    const per = MAX_SELECT_ALL / 10 + 1;
    const parts = Array.from({ length: 10 }, () => ({ images: countedRefs(per, reads), change }));
    const parsed = schema.safeParse({ parts });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([
      `At most ${String(MAX_SELECT_ALL)} images in one step.`,
    ]);
    expect(reads.count).toBe(0);
  });

  it('takes parts that reach the bound together, each ref checked', () => {
    const reads = { count: 0 };
    const parts = [
      { images: countedRefs(MAX_SELECT_ALL - 1, reads), change },
      { images: countedRefs(1, reads), change: { kind: 'flag', flag: 'pick' } as const },
    ];
    const parsed = schema.safeParse({ parts });
    expect(parsed.success).toBe(true);
    expect(reads.count).toBeGreaterThanOrEqual(MAX_SELECT_ALL);
  });

  it('still refuses what the step schema refuses: a bad ref, an unknown key, eleven parts', () => {
    const bad = [
      { parts: [{ images: [{ localId: '', index: 0 }], change }] },
      { parts: [{ images: [{ localId: 'a', index: 0 }], change }], extra: 1 },
      {
        parts: Array.from({ length: 11 }, () => ({ images: [{ localId: 'a', index: 0 }], change })),
      },
      { parts: 'all' },
      null,
    ];
    for (const input of bad)
      expect(schema.safeParse(input).success, JSON.stringify(input)).toBe(false);
  });
});
