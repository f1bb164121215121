/**
 * The batch cards of the task feed: each loaded batch's geometry (batch-geometry.ts) at the feed's
 * width, with its "+N" opened or not and its head as tall as it was drawn. A head's words wrap
 * rather than being cut (a small window, 200 % zoom, a long language, a batch with failures), so
 * its height is what the page drew: each drawn card reports it (task-batch-row.tsx) and the
 * card's height follows; a card not drawn yet counts the head's usual height. Which cards are
 * open is the store's (`tasksOpenBatches`): a language switch draws the feed anew and keeps them.
 */
import { useCallback, useMemo, useState } from 'react';
import { useAppStore } from '../../store/app-store';
import type { TaskGroup } from '../../store/task-list-model';
import { batchGeometry, type BatchGeometry, type BatchMetrics } from './batch-geometry';

export interface BatchCards {
  /** Each group's card when it is a batch (null for a task alone). */
  readonly cards: readonly (BatchGeometry | null)[];
  /** Opens or closes a batch's "+N" (toggles it without `open`). */
  readonly setOpen: (batchId: string, open?: boolean) => void;
  /** A drawn card's head is `height` px tall. */
  readonly reportHead: (batchId: string, height: number) => void;
  /** Changes whenever a reported head changes a card's height. */
  readonly measured: number;
}

interface Heads {
  readonly heights: ReadonlyMap<string, number>;
  readonly version: number;
}

/** The heads' drawn heights, by batch id (whole px, rounded up: the card never cuts its head). */
function useHeadHeights(): [Heads, (batchId: string, height: number) => void] {
  const [heads, setHeads] = useState<Heads>(() => ({ heights: new Map(), version: 0 }));
  const report = useCallback((batchId: string, height: number) => {
    const px = Math.ceil(height);
    setHeads((known) => {
      // Nothing drawn (no layout yet, or a test's page without one) keeps the usual height.
      if (!(px > 0) || known.heights.get(batchId) === px) return known;
      const heights = new Map(known.heights);
      heights.set(batchId, px);
      return { heights, version: known.version + 1 };
    });
  }, []);
  return [heads, report];
}

export function useBatchCards(
  groups: readonly TaskGroup[],
  width: number,
  metrics: BatchMetrics,
): BatchCards {
  const open = useAppStore((state) => state.tasksOpenBatches);
  const setOpen = useAppStore((state) => state.tasksSetBatchOpen);
  const [heads, reportHead] = useHeadHeights();
  const cards = useMemo(
    () =>
      groups.map((group) => {
        if (group.size < 2 || group.batchId === null) return null;
        const head = heads.heights.get(group.batchId) ?? metrics.head;
        return batchGeometry(group.size, width, { ...metrics, head }, open.has(group.batchId));
      }),
    [groups, width, metrics, open, heads],
  );
  return { cards, setOpen, reportHead, measured: heads.version };
}
