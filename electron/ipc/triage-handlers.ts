/**
 * IPC handlers of triage (shared/ipc/triage-contract.ts): a change to a selection of images and
 * its Undo and Redo, the boards' tree, the library's tags, the rejects a purge would move and
 * "Write metadata to files". Each translates to core/triage or core/batch; what a change wrote of
 * each task reaches the page once, as a `tasks:updated` triage change (the engine announces it),
 * and a change of the boards' tree as `gallery:changed`.
 */
import {
  MAX_ANSWERED_TASKS,
  type triageRequests,
  type TriageOutcomeOutput,
} from '../../shared/ipc/triage-contract';
import type { PictorCore } from '../core/pictor-core';
import type { HistoryStore } from '../core/history';
import {
  type Boards,
  rejectsIn,
  rejectsMatching,
  type SmartBoards,
  type TriageActions,
  type TriageOutcome,
} from '../core/triage';
import type { SmartBoardEntry } from '../../shared/domain/smart-board';
import type { SmartBoardOutput } from '../../shared/ipc/triage-contract';
import { withSmartRules } from './smart-rules';
import type { Emit, IpcHandlers } from './ipc-main-bridge';
import { MAX_SELECT_ALL } from '../../shared/ipc/selection-schemas';

type TriageChannel = keyof typeof triageRequests;

export interface TriageHandlerDeps {
  readonly core: {
    readonly triage: TriageActions;
    readonly boards: Boards;
    readonly smartBoards: SmartBoards;
    readonly history: Pick<HistoryStore, 'imageKeys' | 'get' | 'triage'>;
    /** "Write metadata to files", through the core's closing gate (PictorCore.writeMetadata). */
    readonly writeMetadata: PictorCore['writeMetadata'];
  };
  readonly emit: Emit;
  /** The task changes waiting for the page (TaskUpdates): sent before a small change answers. */
  readonly changes?: { flush(): void };
}

export function triageHandlers(deps: TriageHandlerDeps): Pick<IpcHandlers, TriageChannel> {
  const { core, emit } = deps;
  const settling = new Settling();
  const answer = (outcome: TriageOutcome): Promise<TriageOutcomeOutput> =>
    answerOf(deps, settling, outcome);
  const answered = async (outcome: Promise<TriageOutcome>) => answer(await outcome);
  /** A change of the boards' tree: the sidebar and any list filtered by a board read again. */
  const treeChanged = <T>(value: T): T => {
    emit('gallery:changed', { reason: 'boards' });
    return value;
  };
  return {
    'triage:apply': (input) =>
      answered(
        'tasks' in input
          ? core.triage.applyToTasks(input.tasks, input.change)
          : core.triage.apply(input.images, input.change),
      ),
    'triage:applyEach': ({ parts }) =>
      answered(
        core.triage.applyEach(parts.map(({ images, change }) => ({ refs: images, change }))),
      ),
    'triage:settled': ({ change }) => settling.sent(change),
    'triage:undo': async () => answerOrNull(answer, await core.triage.undo()),
    'triage:redo': async () => answerOrNull(answer, await core.triage.redo()),
    'triage:library': () => ({
      boards: core.boards.list().map(({ key, path, parent, images }) => ({
        key,
        path,
        parent,
        images,
      })),
      tags: core.history.triage.tags(),
      smart: core.smartBoards.list().map(smartOutput),
    }),
    'smart:create': ({ name, rules }) =>
      treeChanged({ name: core.smartBoards.create(name, rules).name }),
    'smart:rename': ({ name, newName }) =>
      treeChanged({ name: core.smartBoards.rename(name, newName).name }),
    'smart:delete': ({ name }) => treeChanged(core.smartBoards.delete(name)),
    'boards:create': ({ path }) => treeChanged({ path: core.boards.create(path) }),
    'boards:rename': ({ path, name }) => treeChanged(pathsOf(core.boards.rename(path, name))),
    'boards:move': ({ path, parent }) => treeChanged(pathsOf(core.boards.move(path, parent))),
    'boards:delete': ({ path }) => treeChanged({ images: core.boards.delete(path) }),
    'triage:rejects': ({ board, filter }) => {
      const { images, bytes } =
        filter === undefined
          ? rejectsIn(core.history, board ?? null, MAX_SELECT_ALL)
          : rejectsMatching(core.history, withSmartRules(core.smartBoards, filter), MAX_SELECT_ALL);
      return { images: [...images], bytes };
    },
    'triage:writeMetadata': ({ images }) => core.writeMetadata(images),
  };
}

/**
 * The changes answered at their commit whose tasks are still on their way to the page, by the
 * number their answer gave: each until its tasks are announced and sent.
 */
class Settling {
  private last = 0;
  private readonly pending = new Map<number, Promise<void>>();

  /** The number of a change whose tasks `sent` sends. */
  add(sent: Promise<void>): number {
    const change = (this.last += 1);
    const settled = async () => {
      try {
        await sent;
      } catch {
        // Its flush failed: there is nothing more to wait for.
      } finally {
        this.pending.delete(change);
      }
    };
    this.pending.set(change, settled());
    return change;
  }

  /** Resolves once the change's tasks were sent (at once when they were, or it is unknown). */
  async sent(change: number): Promise<void> {
    await this.pending.get(change);
  }
}

/**
 * What a change (or its Undo) did, for the page. A change of few tasks answers once they are
 * announced and sent (`tasks:updated`), so the page has the change when the answer comes; a
 * larger one answers at its commit, its tasks following, with the number `triage:settled` waits
 * on for them: a key pressed meanwhile reads the images as the change leaves them
 * (renderer/store/pending-triage.ts).
 */
async function answerOf(
  deps: TriageHandlerDeps,
  settling: Settling,
  outcome: TriageOutcome,
): Promise<TriageOutcomeOutput> {
  const flush = () => deps.changes?.flush();
  const small = outcome.tasks <= MAX_ANSWERED_TASKS;
  if (small) {
    await outcome.announced;
    flush();
  }
  const can = deps.core.triage.canUndo();
  return {
    changed: outcome.changed,
    unchanged: outcome.unchanged,
    missing: outcome.missing.length,
    refused: outcome.refused,
    canUndo: can.undo,
    canRedo: can.redo,
    ...(small ? {} : { settle: settling.add(outcome.announced.then(flush, flush)) }),
  };
}

/** {@link answerOf}, or null when there was nothing to undo or redo. */
async function answerOrNull(
  answer: (outcome: TriageOutcome) => Promise<TriageOutcomeOutput>,
  outcome: TriageOutcome | null,
): Promise<TriageOutcomeOutput | null> {
  return outcome === null ? null : answer(outcome);
}

/** A smart board for the sidebar: its rules' reports in order, groups flattened. */
function smartOutput(entry: SmartBoardEntry): SmartBoardOutput {
  const reports = (entry.report?.items ?? [])
    .flatMap((item) => ('rules' in item ? [...item.rules] : [item]))
    .map(({ rule, missing, problems }) => ({ rule, missing, problems: [...problems] }));
  return {
    id: entry.id,
    name: entry.name,
    rules: entry.rules,
    reports,
    ...(entry.problem === undefined ? {} : { problem: entry.problem }),
  };
}

const pathsOf = ({ from, to }: { from: string; to: string }) => ({ from, to });
