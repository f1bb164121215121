/**
 * A rebuild stops where it is when its operation is cancelled: before the next folder it lists
 * or the next task it reads (library/rebuild.ts, map-limited.ts), not only between the batches it
 * hands to the history, so a cancel during the first pass over a large gallery (every sidecar
 * read) does not wait for the whole pass.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OperationCancelledError } from '../../../../electron/core/library/archive/archive-errors';
import { importGalleryTasks } from '../../../../electron/core/library/relocate-open';
import { mapLimited } from '../../../../electron/core/library/map-limited';
import { taskFiles } from './archive/crafted-export';
import { useLibraries, type Library } from './archive/library-fixture';

const library = useLibraries();

async function galleryOf(into: Library, tasks: number): Promise<void> {
  const made = await Promise.all(Array.from({ length: tasks }, () => taskFiles()));
  for (const file of made.flatMap((task) => task.files)) {
    const path = join(into.root, ...file.path.split('/'));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.data);
  }
}

/**
 * A signal the user cancels at the rebuild's `at`-th look at it (the rebuild reads `aborted`
 * before each folder and each task): the moment of the click, injected.
 */
function cancelledAtLook(at: number): { readonly signal: AbortSignal; looks(): number } {
  const controller = new AbortController();
  let looks = 0;
  Object.defineProperty(controller.signal, 'aborted', {
    get: () => {
      looks += 1;
      if (looks === at) controller.abort();
      return looks >= at;
    },
  });
  return { signal: controller.signal, looks: () => looks };
}

describe('a rebuild cancelled', () => {
  it('during its first pass over the folders: stopped there, nothing handed to the history', async () => {
    const into = await library();
    await galleryOf(into, 40);
    const cancel = cancelledAtLook(12);
    const rebuilt = importGalleryTasks(into, cancel.signal);
    await expect(rebuilt).rejects.toBeInstanceOf(OperationCancelledError);
    expect(into.history.count()).toBe(0);
    // It looked at the signal before each of its steps, and none ran on after the cancel
    // beyond the reads already in flight (eight at a time).
    expect(cancel.looks()).toBeLessThanOrEqual(12 + 8);
  });

  it('before it starts: nothing read into the history; left alone, every task comes in', async () => {
    const into = await library();
    await galleryOf(into, 6);
    await expect(importGalleryTasks(into, AbortSignal.abort())).rejects.toBeInstanceOf(
      OperationCancelledError,
    );
    expect(into.history.count()).toBe(0);
    expect(await importGalleryTasks(into, new AbortController().signal)).toMatchObject({
      found: 6,
      added: 6,
    });
  });
});

/** A map that gives back what it is given and counts its calls. */
function countedIdentity(): { map: (n: number) => Promise<number>; calls: () => number } {
  let calls = 0;
  return {
    map: async (n) => {
      calls += 1;
      return n;
    },
    calls: () => calls,
  };
}

describe('mapLimited', () => {
  it('stops every worker before its next item once one call failed, and throws after the calls in flight ended', async () => {
    const started: number[] = [];
    let inFlight = 0;
    let inFlightAtThrow = -1;
    const items = Array.from({ length: 40 }, (_, n) => n);
    const mapped = mapLimited(items, 4, async (n) => {
      started.push(n);
      inFlight += 1;
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      if (n === 5) throw new Error('item 5 failed');
      return n;
    });
    await mapped.catch((error: unknown) => {
      inFlightAtThrow = inFlight;
      expect(String(error)).toContain('item 5 failed');
    });
    expect(inFlightAtThrow).toBe(0);
    // Items 0-5 ran, and at most the three other workers' next ones were under way.
    expect(started.length).toBeLessThanOrEqual(6 + 3);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started.length).toBeLessThanOrEqual(6 + 3);
  });

  it('keeps the order of the results, at most `limit` calls at once', async () => {
    let inFlight = 0;
    let most = 0;
    const results = await mapLimited([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      for (let turn = 0; turn < n; turn += 1) await new Promise((r) => setImmediate(r));
      inFlight -= 1;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30, 0, 60]);
    expect(most).toBe(3);
  });

  it('refuses a limit that is not a whole number of at least 1 instead of giving back holes for results', async () => {
    const { map, calls } = countedIdentity();
    for (const limit of [0, -1, Number.NaN, 2.5]) {
      await expect(mapLimited([1, 2, 3], limit, map)).rejects.toBeInstanceOf(RangeError);
      await expect(mapLimited([], limit, map)).rejects.toBeInstanceOf(RangeError);
    }
    expect(calls()).toBe(0);
  });

  it('maps no items to no results, calling nothing, even once cancelled', async () => {
    const { map, calls } = countedIdentity();
    expect(await mapLimited([], 4, map)).toEqual([]);
    expect(await mapLimited([], 4, map, AbortSignal.abort())).toEqual([]);
    await expect(mapLimited([1], 4, map, AbortSignal.abort())).rejects.toBeInstanceOf(
      OperationCancelledError,
    );
    expect(calls()).toBe(0);
  });
});
