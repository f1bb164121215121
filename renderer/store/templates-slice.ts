/**
 * The prompt templates: the library's templates and word lists as main lists them, a change to
 * one (main checks every word and answers a sentence), an import or export through main's own
 * dialogs, and the compose form's template choice, its plan and its run
 * (compose-template-actions.ts). Main reads and expands the template for a plan and a run; the
 * page's own expansion (features/compose) is only the instant preview.
 */
import type { StateCreator } from 'zustand';
import type { PromptTemplate } from '../../shared/domain/prompt-template';
import type { WordList } from '../../shared/domain/word-lists';
import type { Sentence } from '../../shared/i18n/sentence';
import type { RequestInput } from '../../shared/ipc/contract';
import type { TemplatePlanOutput } from '../../shared/ipc/template-contract';
import { ApiError, call } from '../lib/api';
import type { AppState } from './app-state';
import { sameAgain } from './same-again';
import {
  composeTemplateActions,
  type ComposeTemplateActions,
  type ComposeTemplateChoice,
} from './compose-template-actions';

export type { ComposeTemplateChoice } from './compose-template-actions';

/** A template file's format as the Manage dialog offers it. */
export type TemplateFileFormat = RequestInput<'templates:import'>['format'];
export type TemplateExportFormat = RequestInput<'templates:export'>['format'];

/** What the last import or export did, for the Manage dialog to say. */
export type TemplateFileOutcome =
  | { readonly kind: 'imported'; readonly count: number; readonly problems: number }
  | { readonly kind: 'exported'; readonly count: number; readonly problems: number };

export interface TemplatesSlice extends ComposeTemplateActions {
  templates: readonly PromptTemplate[];
  /** Rows of the library that cannot be read, with main's sentence. */
  templateProblems: readonly { id: string; name: string; problem: Sentence }[];
  templateWordLists: readonly WordList[];
  /** Main's refusal of the Manage dialog's last change (shown there), or null. */
  templatesError: ApiError | null;
  templatesFileOutcome: TemplateFileOutcome | null;
  /** "Manage templates…" is open (drawn beside the compose form, never inside it). */
  templatesManaging: boolean;
  templatesShowManager(open: boolean): void;
  templatesLoad(): Promise<void>;
  /** Saves a new template, or (with `id` and `version`) the one edited; true when saved. */
  templatesSave(input: RequestInput<'templates:save'>): Promise<boolean>;
  templatesDelete(id: string): Promise<boolean>;
  /** Saves a word list from the dialog's text, one word a line. */
  templatesSaveWordList(name: string, text: string): Promise<boolean>;
  templatesDeleteWordList(name: string): Promise<boolean>;
  templatesImport(format: TemplateFileFormat): Promise<void>;
  templatesExport(format: TemplateExportFormat): Promise<void>;
  composeTemplate: ComposeTemplateChoice | null;
  /** Main's plan of the form's template run (the estimate and caps), or null before one. */
  composeTemplatePlan: TemplatePlanOutput | null;
  composeTemplatePlanError: ApiError | null;
}

type Creator = StateCreator<AppState, [], [], TemplatesSlice>;

/** Import and export through main's own dialogs; what they did is said in the dialog. */
function templateFileActions(
  set: Parameters<Creator>[0],
  change: (work: () => Promise<unknown>) => Promise<boolean>,
): Pick<TemplatesSlice, 'templatesImport' | 'templatesExport'> {
  /** One import or export: what main's summary counts (null: its dialog was canceled). */
  const fileWork = (
    kind: TemplateFileOutcome['kind'],
    work: () => Promise<{ count: number; problems: number } | null>,
  ) =>
    change(async () => {
      const done = await work();
      set({ templatesFileOutcome: done && { kind, ...done } });
    });
  return {
    async templatesImport(format) {
      await fileWork('imported', async () => {
        const { summary } = await call('templates:import', { format });
        return summary && { count: summary.imported, problems: summary.problemsTotal };
      });
    },
    async templatesExport(format) {
      await fileWork('exported', async () => {
        const { summary } = await call('templates:export', { format });
        return summary && { count: summary.count, problems: summary.problemsTotal };
      });
    },
  };
}

export const createTemplatesSlice: Creator = (set, get) => {
  /** A change through main, then the library again; a refusal stays in the dialog. */
  const change = async (work: () => Promise<unknown>): Promise<boolean> => {
    try {
      await work();
      set({ templatesError: null });
      await get().templatesLoad();
      return true;
    } catch (error) {
      if (!(error instanceof ApiError)) get().showError(error);
      set({ templatesError: error instanceof ApiError ? error : null });
      return false;
    }
  };
  return {
    templates: [],
    templateProblems: [],
    templateWordLists: [],
    templatesError: null,
    templatesFileOutcome: null,
    templatesManaging: false,
    templatesShowManager: (open) =>
      set({ templatesManaging: open, templatesError: null, templatesFileOutcome: null }),
    async templatesLoad() {
      try {
        const listed = await call('templates:list', undefined);
        const held = get();
        set({
          templates: sameAgain(held.templates, listed.templates),
          templateProblems: sameAgain(held.templateProblems, listed.problems),
          templateWordLists: sameAgain(held.templateWordLists, listed.wordLists),
        });
        // A template deleted here or elsewhere (the CLI) is no longer the form's: a run of it
        // would name nothing, and the field would show a choice that is not in its list.
        const chosen = get().composeTemplate;
        if (chosen && !listed.templates.some((template) => template.id === chosen.id))
          get().composeChooseTemplate(null);
      } catch (error) {
        get().showError(error);
      }
    },
    templatesSave: (input) => change(() => call('templates:save', input)),
    templatesDelete: (id) => change(() => call('templates:delete', { id })),
    templatesSaveWordList: (name, text) =>
      change(() => call('templates:wordList:save', { name, words: text.split(/\r?\n/) })),
    templatesDeleteWordList: (name) => change(() => call('templates:wordList:delete', { name })),
    ...templateFileActions(set, change),
    composeTemplate: null,
    composeTemplatePlan: null,
    composeTemplatePlanError: null,
    ...composeTemplateActions(set, get),
  };
};

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends TemplatesSlice {}
}
