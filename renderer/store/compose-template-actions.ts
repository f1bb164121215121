/**
 * The compose form's template: choosing one (or None), its values and expansion mode, main's plan
 * of the run (the estimate and what the caps say) and the run itself, which main expands and
 * submits as one batch (over a hard cap main asks the user in its own dialog). "Run again with…"
 * fills the form from a task's template. Part of the templates slice (templates-slice.ts).
 */
import type { StateCreator } from 'zustand';
import type { TaskTemplate } from '../../shared/domain/task-template';
import { newTemplateSeed } from '../../shared/domain/template-expand';
import type { RequestInput } from '../../shared/ipc/contract';
import { call, toApiError } from '../lib/api';
import type { AppState } from './app-state';
import { composeBoardOf, composeTarget } from './compose-model';
import type { ComposeOutcome } from './compose-draft';
import { requestOf } from './compose-submit-actions';

/** The compose form's template: which, its values by variable, and how it expands. */
export interface ComposeTemplateChoice {
  readonly id: string;
  readonly values: Readonly<Record<string, string>>;
  readonly mode: 'combinatorial' | 'random';
  /** Random mode's number of prompts. */
  readonly randomCount: number;
  readonly seed: number;
}

/** Random mode's number of prompts until the user says another (and "Use random 100"). */
export const RANDOM_PROMPTS = 100;

export interface ComposeTemplateActions {
  /** Chooses the form's template (null: None): its values empty, every combination. */
  composeChooseTemplate(id: string | null): void;
  composeSetTemplateValue(name: string, value: string): void;
  /** All combinations, or `count` prompts at random (the seed kept). */
  composeSetTemplateMode(mode: 'combinatorial' | 'random', count?: number): void;
  composeNewTemplateSeed(): void;
  /** Asks main for the plan of the form's run; an answer to an older question is dropped. */
  composeTemplatePlanRequest(): Promise<void>;
  /** Generate with a template: main expands and submits every task. */
  composeTemplateRun(): Promise<ComposeOutcome>;
  /** "Run again with…": the task's template, its values, mode and seed, into the form. */
  reuseTemplate(template: TaskTemplate): void;
}

type Creator = StateCreator<AppState>;
type Set = Parameters<Creator>[0];
type Get = Parameters<Creator>[1];

/**
 * The form's run as main takes it: the template, the form's service, request (with its model's
 * options and seed), count and board.
 */
async function runInput(get: Get, choice: ComposeTemplateChoice) {
  if (get().settings === null || get().serviceKeys === null) await get().settingsLoad();
  const state = get();
  const draft = state.composeDraft;
  // The form's request as a plain submit sends it: its model's options and its seed too.
  const { request: asked, count } = requestOf(draft);
  const { prompt: _prompt, ...request } = asked;
  const board = composeBoardOf(state);
  const input: RequestInput<'templates:run'> = {
    templateId: choice.id,
    values: { ...choice.values },
    prompt: draft.prompt.trim(),
    mode:
      choice.mode === 'random'
        ? { kind: 'random', count: choice.randomCount, seed: choice.seed }
        : { kind: 'combinatorial' },
    target: composeTarget(state, draft.provider),
    request,
    count,
    ...(board === null ? {} : { board }),
  };
  return input;
}

/** Generate with a template: main expands it and submits every task as one batch. */
async function runTemplate(set: Set, get: Get): Promise<ComposeOutcome> {
  const choice = get().composeTemplate;
  if (!choice) return { ok: false };
  set((state) => ({ composePending: state.composePending + 1, composeSubmitError: null }));
  try {
    const sentSeed = get().composeDraft.seed;
    const items = await call('templates:run', await runInput(get, choice));
    get().tasksInsert(items);
    // An unlocked seed was for that run: the next one draws anew (as after a plain submit).
    const draft = get().composeDraft;
    if (!draft.seedLocked && draft.seed === sentSeed && sentSeed !== '')
      set({ composeDraft: { ...draft, seed: '' } });
    return { ok: true, items };
  } catch (error) {
    const apiError = toApiError(error);
    set({ composeSubmitError: apiError });
    return { ok: false, error: apiError };
  } finally {
    set((state) => ({ composePending: state.composePending - 1 }));
  }
}

export function composeTemplateActions(set: Set, get: Get): ComposeTemplateActions {
  let asked = 0;
  const choose = (patch: Partial<ComposeTemplateChoice>) => {
    const choice = get().composeTemplate;
    if (choice) set({ composeTemplate: { ...choice, ...patch } });
  };
  return {
    composeChooseTemplate(id) {
      asked += 1;
      set({
        composeTemplate:
          id === null
            ? null
            : { id, values: {}, mode: 'combinatorial', randomCount: RANDOM_PROMPTS, seed: 0 },
        composeTemplatePlan: null,
        composeTemplatePlanError: null,
      });
    },
    composeSetTemplateValue(name, value) {
      const choice = get().composeTemplate;
      if (choice) choose({ values: { ...choice.values, [name]: value } });
    },
    composeSetTemplateMode(mode, count) {
      const seed = get().composeTemplate?.seed || newTemplateSeed();
      choose({ mode, seed, ...(count === undefined ? {} : { randomCount: count }) });
    },
    composeNewTemplateSeed: () => choose({ seed: newTemplateSeed() }),
    async composeTemplatePlanRequest() {
      const choice = get().composeTemplate;
      const mine = ++asked;
      if (!choice) return;
      try {
        const plan = await call('templates:plan', await runInput(get, choice));
        if (mine === asked) set({ composeTemplatePlan: plan, composeTemplatePlanError: null });
      } catch (error) {
        if (mine !== asked) return;
        set({ composeTemplatePlan: null, composeTemplatePlanError: toApiError(error) });
      }
    },
    composeTemplateRun: () => runTemplate(set, get),
    reuseTemplate(template) {
      const { prompt = '', ...values } = template.values;
      asked += 1;
      const { id, mode, seed = 0 } = template;
      set((state) => ({
        composeTemplate: { id, values, mode, randomCount: RANDOM_PROMPTS, seed },
        composeTemplatePlan: null,
        composeTemplatePlanError: null,
        composeDraft: { ...state.composeDraft, prompt },
      }));
      void get().templatesLoad();
    },
  };
}
