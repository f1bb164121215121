/**
 * Triage for the in-memory `window.pictor` (fake-pictor-api.ts): a change applied to the named
 * images of its records (with the record edits main uses, shared/domain/triage-edits.ts), one
 * step of Undo and Redo, the boards a change names, the rejects and the gallery's triage filters.
 * Browser-safe: imports only shared/. Names are not checked here: main's checks are tested over
 * the real wiring (tests/unit/core/triage, tests/integration/cli/triage.test.ts).
 */
import type { ImageRecord, TaskRecord } from '../../shared/domain/task-record';
import { boardKey, flagOf, foldName, parentPath, ratingOf } from '../../shared/domain/triage';
import {
  withBoard,
  withFlag,
  withoutBoard,
  withoutTag,
  withRating,
  withTag,
  withTriageOf,
} from '../../shared/domain/triage-edits';
import type { RequestChannel, RequestInput, RequestOutput } from '../../shared/ipc/contract';
import type { TriageChangeInput } from '../../shared/ipc/triage-contract';

type Channel = Extract<RequestChannel, `triage:${string}` | `boards:${string}` | `smart:${string}`>;
type TriageHandlers = {
  [C in Channel]: (input: RequestInput<C>) => RequestOutput<C> | Promise<RequestOutput<C>>;
};

export interface FakeTriageHost {
  records(): readonly TaskRecord[];
  record(localId: string): TaskRecord | undefined;
  /** Writes a task's images and emits it, as the engine announces a change. */
  setImages(localId: string, images: ImageRecord[]): void;
  now(): number;
}

interface Step {
  readonly localId: string;
  readonly index: number;
  readonly before: ImageRecord;
  readonly after: ImageRecord;
}

export class FakeTriage {
  private readonly boards = new Map<string, string>();
  /** Smart boards by name; the fake keeps their rules but does not evaluate them. */
  private readonly smart = new Map<string, RequestInput<'smart:create'>['rules']>();
  private readonly undoSteps: Step[][] = [];
  private readonly redoSteps: Step[][] = [];

  constructor(private readonly host: FakeTriageHost) {}

  /** Whether an image passes the gallery filter's triage part. */
  matches(image: ImageRecord, input: RequestInput<'gallery:count'>): boolean {
    const { rating, flag, tags, board, unfiled } = input;
    // Smart rules are main's SQL (tests/unit/core/history/history-smart-filter.test.ts): here,
    // a smart board lists nothing.
    if (input.smart !== undefined) return false;
    if (rating) {
      const value = ratingOf(image);
      if (
        rating.op === '='
          ? value !== rating.value
          : rating.op === '>='
            ? value < rating.value
            : value > rating.value
      )
        return false;
    }
    if (flag !== undefined && flagOf(image) !== flag) return false;
    const own = new Set((image.tags ?? []).map(foldName));
    if (tags) {
      const hits = tags.keys.filter((key) => own.has(foldName(key))).length;
      if (
        tags.mode === 'any' ? hits === 0 : tags.mode === 'all' ? hits < tags.keys.length : hits > 0
      )
        return false;
    }
    const boards = (image.boards ?? []).map(boardKey);
    if (board !== undefined && !boards.includes(boardKey(board))) return false;
    return !(unfiled === true && boards.length > 0);
  }

  private edit(change: TriageChangeInput): (image: ImageRecord) => ImageRecord {
    const at = this.host.now();
    switch (change.kind) {
      case 'rating':
        return (image) => withRating(image, change.rating, at);
      case 'flag':
        return (image) => withFlag(image, change.flag, at);
      case 'tag':
        return change.add
          ? (image) => withTag(image, change.tag)
          : (image) => withoutTag(image, foldName(change.tag));
      case 'board':
        if (change.add) this.addBoard(change.path);
        if (!change.add) return (image) => withoutBoard(image, boardKey(change.path));
        return change.from === undefined || boardKey(change.from) === boardKey(change.path)
          ? (image) => withBoard(image, change.path)
          : (image) => withoutBoard(withBoard(image, change.path), boardKey(change.from ?? ''));
    }
  }

  private addBoard(path: string): void {
    for (let at: string | null = path; at !== null; at = parentPath(at)) {
      if (!this.boards.has(boardKey(at))) this.boards.set(boardKey(at), at);
    }
  }

  /** Writes each image of `refs` as `next` says; the images changed, before and after. */
  private run(
    refs: readonly { localId: string; index: number }[],
    next: (image: ImageRecord, localId: string) => ImageRecord,
  ): { step: Step[]; missing: number; unchanged: number } {
    const step: Step[] = [];
    let unchanged = 0;
    // By id, as main reads them: a change costs what it names, not the whole history.
    const byTask = new Map<string, number[]>();
    for (const ref of refs)
      byTask.set(ref.localId, [...(byTask.get(ref.localId) ?? []), ref.index]);
    for (const [localId, wanted] of byTask) {
      const record = this.host.record(localId);
      if (!record) continue;
      const images = record.images.map((image) => {
        if (!wanted.includes(image.index) || image.state === 'deleted') return image;
        const after = next(image, record.localId);
        if (after === image) unchanged += 1;
        else step.push({ localId: record.localId, index: image.index, before: image, after });
        return after;
      });
      if (images.some((image, n) => image !== record.images[n])) {
        this.host.setImages(record.localId, images);
      }
    }
    return { step, missing: refs.length - step.length - unchanged, unchanged };
  }

  /** The images a change names: its own, or every image (not in the trash) of its tasks. */
  private named(input: RequestInput<'triage:apply'>): { localId: string; index: number }[] {
    if (!('tasks' in input)) return input.images;
    return input.tasks.flatMap((localId) =>
      (this.host.record(localId)?.images ?? [])
        .filter((image) => image.state !== 'deleted')
        .map((image) => ({ localId, index: image.index })),
    );
  }

  /** A change's outcome, its step kept for Undo. */
  private stepped(done: { step: Step[]; missing: number; unchanged: number }) {
    if (done.step.length > 0) {
      this.undoSteps.push(done.step);
      this.redoSteps.length = 0;
    }
    return this.outcome(done);
  }

  private outcome(done: { step: Step[]; missing: number; unchanged: number }) {
    return {
      // The fake's writes go out as `tasks:updated` at once (updateTask), as the answer would.
      changed: done.step.length,
      unchanged: done.unchanged,
      missing: done.missing,
      refused: 0,
      canUndo: this.undoSteps.length > 0,
      canRedo: this.redoSteps.length > 0,
    };
  }

  private replay(from: Step[][], to: Step[][], side: 'before' | 'after') {
    const step = from.pop();
    if (!step) return null;
    const done = this.run(step, (image, localId) => {
      const entry = step.find((s) => s.localId === localId && s.index === image.index);
      return entry ? withTriageOf(image, entry[side]) : image;
    });
    to.push(step);
    return this.outcome(done);
  }

  readonly handlers: TriageHandlers = {
    'triage:apply': (input) => this.stepped(this.run(this.named(input), this.edit(input.change))),
    'triage:applyEach': ({ parts }) => {
      const edits = parts.map(({ images, change }) => ({ images, edit: this.edit(change) }));
      const named = (localId: string, index: number) => (ref: { localId: string; index: number }) =>
        ref.localId === localId && ref.index === index;
      const refs = parts
        .flatMap((part) => part.images)
        .filter((ref, n, all) => all.findIndex(named(ref.localId, ref.index)) === n);
      const done = this.run(refs, (image, localId) =>
        edits.reduce(
          (next, { images, edit }) =>
            images.some(named(localId, image.index)) ? edit(next) : next,
          image,
        ),
      );
      return this.stepped(done);
    },
    'triage:undo': () => this.replay(this.undoSteps, this.redoSteps, 'before'),
    'triage:redo': () => this.replay(this.redoSteps, this.undoSteps, 'after'),
    'triage:library': () => {
      const images = this.host.records().flatMap((record) => record.images);
      const count = (test: (image: ImageRecord) => boolean) => images.filter(test).length;
      const tags = new Map<string, string>();
      for (const image of images) for (const tag of image.tags ?? []) tags.set(foldName(tag), tag);
      return {
        boards: [...this.boards]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([key, path]) => ({
            key,
            path,
            parent: parentPath(path),
            images: count((image) => (image.boards ?? []).some((b) => boardKey(b) === key)),
          })),
        tags: [...tags].map(([key, tag]) => ({
          key,
          tag,
          images: count((image) => (image.tags ?? []).some((t) => foldName(t) === key)),
        })),
        smart: [...this.smart].map(([name, rules]) => ({ id: name, name, rules, reports: [] })),
      };
    },
    'smart:create': ({ name, rules }) => {
      this.smart.set(name, rules);
      return { name };
    },
    'smart:rename': ({ name, newName }) => {
      const rules = this.smart.get(name);
      if (rules === undefined) throw new Error(`No smart board ${name}`);
      this.smart.delete(name);
      this.smart.set(newName, rules);
      return { name: newName };
    },
    'smart:delete': ({ name }) => {
      this.smart.delete(name);
    },
    'boards:create': ({ path }) => {
      this.addBoard(path);
      return { path };
    },
    'boards:rename': ({ path }) => ({ from: path, to: path }),
    'boards:move': ({ path }) => ({ from: path, to: path }),
    'boards:delete': ({ path }) => {
      const done = this.run(
        this.host
          .records()
          .flatMap((record) =>
            record.images.map((image) => ({ localId: record.localId, index: image.index })),
          ),
        (image) => withoutBoard(image, boardKey(path)),
      );
      this.boards.delete(boardKey(path));
      return { images: done.step.length };
    },
    'triage:rejects': ({ board }) => {
      const rejects = this.host
        .records()
        .flatMap((record) => record.images.map((image) => ({ record, image })))
        .filter(({ image }) => image.state === 'saved' && flagOf(image) === 'reject')
        .filter(
          ({ image }) =>
            board === undefined || (image.boards ?? []).map(boardKey).includes(boardKey(board)),
        );
      return {
        images: rejects.map(({ record, image }) => ({
          localId: record.localId,
          index: image.index,
        })),
        bytes: rejects.reduce((sum, { image }) => sum + (image.bytes ?? 0), 0),
      };
    },
    'triage:writeMetadata': ({ images }) => ({
      written: images.length,
      unchanged: 0,
      withCredentials: 0,
      failed: 0,
    }),
  };
}
