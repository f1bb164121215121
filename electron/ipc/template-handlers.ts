/**
 * IPC handlers of the `templates:` channels (shared/ipc/template-contract.ts): the library's
 * templates and word lists (core/templates' TemplateStore checks every word), an import or export
 * through main's own open and save dialogs (the page never names a path), and a template run's
 * plan and run (core/batch/template-runs.ts: main reads the template and expands it; over a hard
 * cap, main's own dialog asks the user). Translations to core only.
 */
import type { StoredTemplate } from '../../shared/domain/template-library';
import type { Sentence } from '../../shared/i18n/sentence';
import { sentence } from '../../shared/i18n/sentence';
import {
  MAX_LISTED_PROBLEMS,
  type TemplatePlanOutput,
  type templateRequests,
} from '../../shared/ipc/template-contract';
import type { TaskItem } from '../../shared/ipc/task-item';
import type { TaskRecord } from '../../shared/domain/task-record';
import type { TemplateStore } from '../core/templates';
import type { TemplatePlan, TemplateRuns } from '../core/batch';
import type { CostBook } from '../core/costs';
import type { TaskEngine } from '../core/engine';
import { UserFacingError } from '../core/errors';
import type { LibraryDialogs } from '../ports/library-dialogs';
import type { OverCapPrompts } from '../ports/user-prompts';
import type { IpcHandlers } from './ipc-main-bridge';

type TemplateChannel = keyof typeof templateRequests;

export interface TemplateHandlerDeps {
  readonly core: {
    readonly templates: TemplateStore;
    readonly costs: Pick<CostBook, 'previewBatch'>;
    readonly engine: Pick<TaskEngine, 'submitBatch' | 'item'>;
    /** The core's runs of a template (planned, priced, submitted as one batch). */
    readonly templateRuns: TemplateRuns;
  };
  /** Main's own open and save dialogs; absent where the host has none (import and export say so). */
  readonly dialogs?: LibraryDialogs;
  /** Main's own question before tasks pass a hard cap; absent: such a run is refused. */
  readonly overCap?: OverCapPrompts;
  /** Follows the new tasks' submits, as `tasks:submit` does (an account refusal heard once). */
  readonly follow: (records: readonly TaskRecord[]) => TaskItem[];
}

const NO_DIALOGS = sentence('error.library.noDialogs');

interface ProblemOutput {
  name?: string;
  line?: number;
  index?: number;
  leftOut?: boolean;
  problem: Sentence;
}

/** At most {@link MAX_LISTED_PROBLEMS} problems, and how many there were. */
function listed(problems: readonly ProblemOutput[]) {
  return { problems: problems.slice(0, MAX_LISTED_PROBLEMS), problemsTotal: problems.length };
}

/** The library's rows for the page: templates read, and the others by name with their sentence. */
function listOf(rows: readonly StoredTemplate[]) {
  const templates = rows.flatMap((row) => (row.template ? [row.template] : []));
  const problems = rows.flatMap((row) =>
    row.template === null ? [{ id: row.id, name: row.name, problem: row.problem }] : [],
  );
  return { templates, problems };
}

/** The plan as the page reads it (what every task's record keeps stays in main). */
function planOutput(plan: TemplatePlan): TemplatePlanOutput {
  const { record: _record, ...shown } = plan;
  return {
    ...shown,
    prompts: [...plan.prompts],
    estimate: {
      perPrompt: [...plan.estimate.perPrompt],
      totals: [...plan.estimate.totals],
      unknownTasks: plan.estimate.unknownTasks,
    },
    warnings: [...plan.warnings],
    negative: plan.negative,
    hardCap: plan.hardCap ? { refusal: plan.hardCap.refusal, caps: [...plan.hardCap.caps] } : null,
  };
}

export function templateHandlers(deps: TemplateHandlerDeps): Pick<IpcHandlers, TemplateChannel> {
  const { core } = deps;
  const store = core.templates;
  const runs = core.templateRuns;
  const dialogs = (): LibraryDialogs => {
    const chosen = deps.dialogs;
    if (!chosen?.chooseTemplateExportFile || !chosen.chooseTemplateImportFile) {
      throw new UserFacingError(NO_DIALOGS, { code: 'failed' });
    }
    return chosen;
  };
  return {
    'templates:list': () => ({
      ...listOf(store.list()),
      wordLists: [...store.wordLists()].map(([name, words]) => ({ name, words: [...words] })),
    }),
    'templates:save': ({ name, body, negative, id, version }) =>
      store.save({ name, body, negative, id, version }),
    'templates:delete': ({ id }) => store.remove(id),
    'templates:wordList:save': ({ name, words }) => store.saveWordList(name, words),
    'templates:wordList:delete': ({ name }) => store.removeWordList(name),
    'templates:import': async ({ format }) => {
      const path = await dialogs().chooseTemplateImportFile?.(format);
      if (!path) return { summary: null };
      const summary = await store.importFile(path, format);
      return { summary: { imported: summary.imported, ...listed(summary.problems) } };
    },
    'templates:export': async ({ format, ids }) => {
      const path = await dialogs().chooseTemplateExportFile?.(format);
      if (!path) return { summary: null };
      const summary = await store.exportFile(path, format, ids);
      return { summary: { count: summary.count, ...listed(summary.problems) } };
    },
    'templates:plan': (input) => planOutput(runs.plan(input)),
    'templates:run': async (input) => {
      const prompts = deps.overCap ? { prompts: deps.overCap } : {};
      const { records } = await runs.run(input, prompts);
      return deps.follow(records);
    },
  };
}
