/**
 * A triage write over many images as the history worker runs it (history-worker-ops.ts): each
 * named image's edits (a rating, a flag, a tag, a board; core/triage checked their words) applied
 * in one transaction of the store's `editMany`, what each changed kept for Undo, and the change
 * log's entries the write made (main's change feed must not report them back as another
 * process's).
 */
import { isVisibleImage, type ImageRecord } from '../../../shared/domain/task-record';
import { type TaskTriageDelta, triageDelta } from '../../../shared/domain/triage-delta';
import {
  type ImageTriage as TriageFields,
  MAX_TAGS_PER_IMAGE,
} from '../../../shared/domain/triage';
import {
  withBoard,
  withFlag,
  withoutBoard,
  withoutTag,
  withRating,
  withTag,
} from '../../../shared/domain/triage-edits';
import type { HistoryStore } from './history-store';
import type { ImageChange } from './triage-write';
import {
  type ImageAt,
  type ImageTriage,
  DELTAS_PER_CHUNK,
  type TriageEdit,
  type TriagePartArgs,
  type TriageStepImage,
  type TriageWritten,
} from './history-worker-protocol';

/**
 * What a write does to one image (`n`: its place in the write's refs); refused: left as it was.
 * Over its triage alone (the rows, triage-rows-edit) or its whole record: the edits
 * (shared/domain/triage-edits.ts) change the triage fields and keep the rest.
 */
export type ImageEdit = <T extends TriageFields>(image: T, n: number) => T | 'refused';

/** The edit of one image, `at` its time. */
function imageEdit(edit: TriageEdit, at: number): ImageEdit {
  switch (edit.kind) {
    case 'rating':
      return (image) => withRating(image, edit.rating, at);
    case 'flag':
      return (image) => withFlag(image, edit.flag, at);
    case 'tag':
      if (!edit.add) return (image) => withoutTag(image, edit.key);
      return <T extends TriageFields>(image: T): T | 'refused' => {
        const next = withTag(image, edit.name);
        return next !== image && (image.tags?.length ?? 0) >= MAX_TAGS_PER_IMAGE ? 'refused' : next;
      };
    case 'board': {
      const { leave } = edit;
      if (!edit.add) return (image) => withoutBoard(image, edit.key);
      if (leave === undefined) return (image) => withBoard(image, edit.path);
      return (image) => withoutBoard(withBoard(image, edit.path), leave);
    }
  }
}

/**
 * The images the parts name (each once, in the order first named) and the edit of each: its
 * parts' edits one after the other (a part naming an image twice edits it once), refused when one
 * of them refuses.
 */
export function partEdits(
  parts: readonly TriagePartArgs[],
  at: number,
): { refs: ImageAt[]; edit: ImageEdit } {
  const edits = parts.map((part) => imageEdit(part.edit, at));
  const places = new Map<string, number>();
  const refs: ImageAt[] = [];
  const chosen: number[][] = [];
  parts.forEach((part, p) => {
    for (const ref of part.refs) {
      const key = `${ref.localId}#${String(ref.index)}`;
      let n = places.get(key);
      if (n === undefined) {
        n = refs.push({ localId: ref.localId, index: ref.index }) - 1;
        places.set(key, n);
        chosen.push([]);
      }
      const list = chosen[n];
      if (list !== undefined && list.at(-1) !== p) list.push(p);
    }
  });
  const edit: ImageEdit = <T extends TriageFields>(image: T, n: number): T | 'refused' => {
    let next = image;
    for (const p of chosen[n] ?? []) {
      const edited = edits[p]?.(next, n) ?? next;
      if (edited === 'refused') return 'refused';
      next = edited;
    }
    return next;
  };
  return { refs, edit };
}

/** The triage fields of an image (what Undo needs), nothing else of it. */
function triageOf(image: TriageFields): ImageTriage {
  const { favourite, rating, flag, tags, boards, triagedAt } = image;
  return { favourite, rating, flag, tags, boards, triagedAt };
}

interface Counts {
  changed: number;
  unchanged: number;
  refused: number;
}

/** `refs` grouped by task: each task's image positions, each with its place in `refs`. */
function byTask(refs: readonly ImageAt[]): Map<string, Map<number, number>> {
  const tasks = new Map<string, Map<number, number>>();
  refs.forEach((ref, n) => {
    const places = tasks.get(ref.localId) ?? new Map<number, number>();
    if (!places.has(ref.index)) places.set(ref.index, n);
    tasks.set(ref.localId, places);
  });
  return tasks;
}

/**
 * Edits the named images in one transaction (`n`: the ref's place in `refs`); `hold` runs half-way
 * through it (a test holds the worker there). From v16 the triage rows alone are read and written
 * (HistoryStore.editTriageRows); an older file's records are edited whole (HistoryStore.editMany).
 */
export function writeTriage(
  store: HistoryStore,
  refs: readonly ImageAt[],
  write: { edit: ImageEdit; at: number; hold?: (() => void) | undefined },
): TriageWritten {
  const tasks = byTask(refs);
  const seen = new Set<string>();
  const step: TriageStepImage[] = [];
  const missing: ImageAt[] = [];
  const counts: Counts = { changed: 0, unchanged: 0, refused: 0 };
  /** One named image's edit, counted (and kept for Undo); `image`: absent when it is not there. */
  const apply = <T extends TriageFields>(
    ref: ImageAt,
    n: number,
    image: T | undefined,
  ): T | null => {
    if (!image) {
      missing.push(ref);
      return null;
    }
    const next = write.edit(image, n);
    if (next === 'refused') counts.refused += 1;
    else if (next === image) counts.unchanged += 1;
    else {
      counts.changed += 1;
      step.push({ ref, before: triageOf(image), after: triageOf(next) });
      return next;
    }
    return null;
  };
  /** Half-way through the transaction, the earlier tasks written in it (a test holds here). */
  const reached = (localId: string) => {
    seen.add(localId);
    if (seen.size === Math.ceil(tasks.size / 2)) write.hold?.();
  };
  store.takeOwnChanges();
  const visit: Visit = { apply, reached, at: write.at };
  const deltas = triageRowsWrite(store, tasks, visit) ?? recordsWrite(store, tasks, visit);
  for (const [localId, places] of tasks) {
    if (!seen.has(localId)) for (const index of places.keys()) missing.push({ localId, index });
  }
  return {
    ...counts,
    missing,
    step: JSON.stringify(step),
    deltas: chunked(deltas),
    tasks: deltas.length,
    logged: store.takeOwnChanges(),
  };
}

interface Visit {
  readonly apply: <T extends TriageFields>(
    ref: ImageAt,
    n: number,
    image: T | undefined,
  ) => T | null;
  readonly reached: (localId: string) => void;
  readonly at: number;
}

/** The edit over the triage rows alone; null when the file keeps triage in its records. */
function triageRowsWrite(
  store: HistoryStore,
  tasks: ReadonlyMap<string, ReadonlyMap<number, number>>,
  { apply, reached, at }: Visit,
): TaskTriageDelta[] | null {
  return store.editTriageRows(
    tasks.keys(),
    (localId, stored) => {
      if (!stored) return [];
      reached(localId);
      const changes: ImageChange[] = [];
      for (const [index, n] of tasks.get(localId) ?? []) {
        const image = stored.deleted.has(index) ? undefined : stored.images.get(index);
        const next = apply({ localId, index }, n, image);
        if (image && next) changes.push([index, image, next]);
      }
      return changes;
    },
    at,
  );
}

/** The edit over each task's record (a file from before v16, which keeps triage there). */
function recordsWrite(
  store: HistoryStore,
  tasks: ReadonlyMap<string, ReadonlyMap<number, number>>,
  { apply, reached, at }: Visit,
): TaskTriageDelta[] {
  const edited = new Map<string, number[]>();
  const written = store.editMany(tasks.keys(), (record) => {
    reached(record.localId);
    const images = [...record.images];
    const changed: number[] = [];
    for (const [index, n] of tasks.get(record.localId) ?? []) {
      const next = apply({ localId: record.localId, index }, n, usable(images[index]));
      if (next) {
        images[index] = next;
        changed.push(index);
      }
    }
    edited.set(record.localId, changed);
    return changed.length === 0
      ? null
      : { ...record, images, favourite: images.some((image) => image.favourite), updatedAt: at };
  });
  return written.map((record) =>
    triageDelta(
      record,
      (edited.get(record.localId) ?? []).flatMap((index) => {
        const image = record.images[index];
        return image ? [[index, image] as const] : [];
      }),
    ),
  );
}

/** The image, unless it is not there or in the trash. */
const usable = (image: ImageRecord | undefined) =>
  image && isVisibleImage(image) ? image : undefined;

/** The deltas as JSON arrays of {@link DELTAS_PER_CHUNK}. */
function chunked(deltas: readonly TaskTriageDelta[]): string[] {
  const chunks: string[] = [];
  for (let at = 0; at < deltas.length; at += DELTAS_PER_CHUNK) {
    chunks.push(JSON.stringify(deltas.slice(at, at + DELTAS_PER_CHUNK)));
  }
  return chunks;
}
