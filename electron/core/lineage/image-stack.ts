/**
 * An image's stack: the image it all began with (its original) and every image made from it,
 * directly or not (edits, fills, expansions, upscales, and what was made from those), oldest
 * first, read from the history alone so it holds offline.
 *
 * The original is found by walking parents up (`request.inputs.parent`): the first image whose
 * task has no inputs, or, when the first task's source came from a file, that stored file
 * (`{ kind: 'input', sha256 }`). A parent the history no longer has is still the original (its
 * other children stay in the stack; the page shows it as gone). The stack is then walked down from
 * the original through the history's lineage index (history/lineage-rows.ts).
 *
 * Records come from a library anyone could have edited or imported: parents may form a cycle
 * (the oldest image of the cycle is then the original), a chain may be deep and an image may have
 * a huge fan-out. Every walk is bounded: at most {@link MAX_STACK_DEPTH} steps up, at most
 * {@link MAX_STACK_IMAGES} images and {@link MAX_STACK_ROWS} task rows read down, each image met
 * once.
 */
import type { ImageParent } from '../../../shared/domain/image-inputs';
import { providerOf } from '../../../shared/domain/providers';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { ImageStack, StackEntry } from '../../../shared/ipc/inputs-contract';
import type { HistoryStore } from '../history';

/** Images in one stack at most (the stack's schema in shared/ipc/inputs-contract.ts). */
export const MAX_STACK_IMAGES = 1_000;
/** Parents followed up from an image at most. */
export const MAX_STACK_DEPTH = 1_000;
/** Task rows read on the way down at most (tasks without images count too). */
export const MAX_STACK_ROWS = 4 * MAX_STACK_IMAGES;

/** What the stack reads of the history. */
export type StackHistory = Pick<HistoryStore, 'get' | 'lineage'>;

type Original = ImageStack['original'];

const keyOf = (image: ImageParent) => `${image.index}:${image.localId}`;

/** Reads each task once per stack. */
class Records {
  private readonly cache = new Map<string, TaskRecord | undefined>();

  constructor(private readonly history: StackHistory) {}

  get(localId: string): TaskRecord | undefined {
    if (!this.cache.has(localId)) this.cache.set(localId, this.history.get(localId));
    return this.cache.get(localId);
  }

  remember(record: TaskRecord): void {
    this.cache.set(record.localId, record);
  }
}

/** The oldest image of a cycle of parents (by its task's date, then ids): the same from any of it. */
function oldestOf(cycle: readonly ImageParent[], records: Records): ImageParent {
  const at = (image: ImageParent) => records.get(image.localId)?.createdAt ?? 0;
  return [...cycle].sort(
    (a, b) =>
      at(a) - at(b) ||
      (a.localId < b.localId ? -1 : a.localId > b.localId ? 1 : 0) ||
      a.index - b.index,
  )[0] as ImageParent;
}

/** The original of `image`, by its parents (see the file's comment). */
function originalOf(image: ImageParent, records: Records): Original {
  const path: ImageParent[] = [];
  const met = new Map<string, number>();
  let at = image;
  for (let step = 0; step < MAX_STACK_DEPTH; step += 1) {
    const seen = met.get(keyOf(at));
    if (seen !== undefined) return { kind: 'library', ...oldestOf(path.slice(seen), records) };
    met.set(keyOf(at), path.length);
    path.push(at);
    const inputs = records.get(at.localId)?.request.inputs;
    if (!inputs) return { kind: 'library', ...at };
    if (!inputs.parent) return { kind: 'input', sha256: inputs.source.sha256 };
    at = inputs.parent;
  }
  return { kind: 'library', ...at };
}

/** The entry of `record`'s image `index`; the original has no operation and no parent. */
function entryOf(record: TaskRecord, index: number, original: boolean): StackEntry | null {
  const image = record.images[index];
  if (!image) return null;
  const inputs = original ? undefined : record.request.inputs;
  const { model } = record.request;
  return {
    localId: record.localId,
    index,
    operation: inputs?.operation ?? null,
    ...(inputs?.parent ? { parent: inputs.parent } : {}),
    provider: providerOf(record),
    ...(model === undefined ? {} : { model }),
    prompt: record.request.prompt,
    createdAt: record.createdAt,
    state: image.state,
    ...(inputs?.factor === undefined ? {} : { factor: inputs.factor }),
  };
}

const byAge = (a: StackEntry, b: StackEntry) =>
  a.createdAt - b.createdAt ||
  (a.localId < b.localId ? -1 : a.localId > b.localId ? 1 : 0) ||
  a.index - b.index;

/** The walk down from an original: what it met, what it found, what it may still read. */
class Descent {
  readonly entries: StackEntry[] = [];
  readonly queue: ImageParent[] = [];
  private readonly met = new Set<string>();
  private readonly tasks = new Set<string>();
  private rows = 0;

  constructor(
    private readonly history: StackHistory,
    private readonly records: Records,
    /** Entries it may find: the stack's bound less the original's own. */
    private readonly room: number,
  ) {}

  get full(): boolean {
    return this.entries.length >= this.room || this.rows >= MAX_STACK_ROWS;
  }

  /** The original image, first met (its entry is the caller's). */
  meet(image: ImageParent): void {
    this.met.add(keyOf(image));
    this.queue.push(image);
  }

  /** The tasks made from `parent` (an image, or the original input), their images met. */
  take(parent: ImageParent | { sha256: string }): void {
    const limit = Math.min(this.room, MAX_STACK_ROWS - this.rows);
    const children =
      'sha256' in parent
        ? this.history.lineage.fromInput(parent.sha256, limit)
        : this.history.lineage.childrenOf(parent, limit);
    this.rows += children.length;
    for (const child of children) {
      // A task has one parent: met again, it is part of a cycle already walked.
      if (this.tasks.has(child.localId)) continue;
      this.tasks.add(child.localId);
      this.records.remember(child);
      child.images.forEach((_image, index) => {
        const key = keyOf({ localId: child.localId, index });
        if (this.met.has(key) || this.entries.length >= this.room) return;
        this.met.add(key);
        const entry = entryOf(child, index, false);
        if (entry) this.entries.push(entry);
        this.queue.push({ localId: child.localId, index });
      });
    }
  }
}

/** Every image made from `original`, oldest first, within the bounds (see the file's comment). */
function walkDown(original: Original, history: StackHistory, records: Records): StackEntry[] {
  const record = original.kind === 'library' ? records.get(original.localId) : undefined;
  const head = record && original.kind === 'library' ? entryOf(record, original.index, true) : null;
  const descent = new Descent(history, records, MAX_STACK_IMAGES - (head ? 1 : 0));
  if (original.kind === 'library') {
    descent.meet({ localId: original.localId, index: original.index });
  } else descent.take(original);
  // Nearest generations first, so a stack cut at its bound keeps what is closest to the original.
  for (let next = 0; next < descent.queue.length && !descent.full; next += 1) {
    descent.take(descent.queue[next] as ImageParent);
  }
  const rest = descent.entries.sort(byAge);
  return head ? [head, ...rest] : rest;
}

/**
 * The stack `image` belongs to: its original and every image made from it, oldest first (the
 * original's own entry first when the library has it). `null` when the history has no such image.
 */
export function imageStack(history: StackHistory, image: ImageParent): ImageStack | null {
  const records = new Records(history);
  if (!records.get(image.localId)?.images[image.index]) return null;
  const original = originalOf(image, records);
  return { original, entries: walkDown(original, history, records) };
}
