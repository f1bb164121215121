/**
 * What is typed or chosen in Settings' "add" forms (a spending cap, a price) before it is added,
 * what is typed in its fields saved on their own (the service's name, the addresses, the
 * defaults) before Save, and the dialogs open with what is typed or chosen there: the boards',
 * the smart boards', the templates' (and their file format), the tag editor's, "Track a task id"
 * and "Connect a service" (its service and address); Settings' ComfyUI workflow import (the file
 * main picked, its name and its role map), the gallery's date filters as partly typed, and the
 * edit panel's reference chosen in the library, and the version chosen in the viewer's stack.
 * A new language draws the window anew (app.tsx keys it on the language), so a form's own state
 * was lost at a switch: half a price typed, its service and basis chosen. Each value lives here
 * under its field's name and a form reads it with `useFormDraft` (use-form-draft.ts) as it would `useState`;
 * the form clears what it added. The API key field is not here, on purpose: a key typed and not
 * saved is never kept beyond its field.
 */
import type { StateCreator } from 'zustand';
import type { WorkflowRole } from '../../shared/domain/comfy-workflow';
import type { AmountKind } from '../../shared/domain/cost-amounts';
import type { CapPeriod } from '../../shared/domain/cost-ledger';
import type { ProviderId } from '../../shared/domain/providers';
import type { CostUnit, PriceBasis } from '../../shared/domain/task-cost';
import type { AppState } from './app-state';
import type { draftFromDefaults } from './compose-model';
import type { TemplateFileFormat } from './templates-slice';
import type { WorkflowPick } from './workflows-slice';

/**
 * What is typed in a field saved on its own (Settings' service name and addresses), over the
 * saved value `over`: shown only while that is still the saved value (use-form-draft.ts).
 */
export interface KeptEdit {
  readonly text: string;
  readonly over: string;
}

/**
 * Settings' fields saved on their own, each typed over its saved value; "Connect a service"'s
 * address, typed over the address its service has (connect-panel.tsx); and the gallery's date
 * filters, typed over the day each filters by (date-field.tsx).
 */
export type KeptEditField =
  | 'serviceName'
  | 'baseUrl'
  | `serviceBaseUrls.${ProviderId}`
  | 'connect.address'
  | 'gallery.from'
  | 'gallery.to';

/** Settings' defaults for new prompts as typed (defaults-section.tsx), over the saved ones. */
export interface DefaultsEdit {
  readonly draft: ReturnType<typeof draftFromDefaults>;
  readonly over: ReturnType<typeof draftFromDefaults>;
}

/**
 * The dialog the gallery's boards sidebar has open (sidebar-actions.tsx): a new board inside
 * `parent`, or a board's rename, move or delete.
 */
export type BoardDialog =
  | { readonly kind: 'create'; readonly parent: string | null }
  | { readonly kind: 'rename' | 'move' | 'delete'; readonly board: string };

/**
 * The smart boards' dialog open in the sidebar (smart-boards-ui.tsx, smart-board-menu.tsx): the
 * gallery's filters saved under a new name, or a smart board's rename or delete.
 */
export type SmartDialog =
  { readonly kind: 'save' } | { readonly kind: 'rename' | 'delete'; readonly name: string };

/** "Track a task id" open (track-dialog.tsx), with the id and the prompt typed in it. */
export interface TrackDraft {
  readonly taskId: string;
  readonly prompt: string;
}

/** What is typed in a board picker (board-picker.tsx) and the board active in its list. */
interface PickerDraft {
  readonly text: string;
  readonly active: string;
}

/**
 * A ComfyUI workflow being imported in Settings (use-workflow-import.ts): the file main picked (its
 * token is main's opaque handle, which main checks and spends at the save), the model's name and
 * the inputs mapped to roles.
 */
export interface WorkflowDraft {
  readonly pick: WorkflowPick;
  readonly name: string;
  readonly map: Partial<Record<WorkflowRole, string>>;
}

/**
 * The version chosen in the stack strip of the viewer's image `image` (its `localId#index`), and
 * whether it is compared with the original (viewer-edit.tsx).
 */
export interface StackDraft {
  readonly image: string;
  readonly chosen: number;
  readonly comparing: boolean;
}

/** A prompt template being edited (template-manager.tsx): a new one (no id) or a saved one. */
export interface TemplateDraft {
  readonly id?: string;
  readonly version?: number;
  readonly name: string;
  readonly body: string;
  readonly negative: string;
}

/** Every kept field and its value's type. */
export type FormDrafts = {
  readonly defaults: DefaultsEdit;
  /** Open dialogs and what is typed in them (a new language redraws them open, as they were). */
  readonly 'boards.dialog': BoardDialog | null;
  readonly 'boards.name': string;
  readonly 'boards.parent': string;
  /** The board picker open (the target board's chooser, or "Move to…"). */
  readonly 'boards.picker': PickerDraft;
  readonly 'templates.editing': TemplateDraft | null;
  readonly 'templates.listName': string;
  readonly 'templates.listWords': string;
  readonly 'templates.format': TemplateFileFormat;
  readonly 'smart.dialog': SmartDialog | null;
  readonly 'smart.name': string;
  /** What is typed in the tag editor's field (its dialog is the triage slice's). */
  readonly 'triage.tagText': string;
  readonly 'track.dialog': TrackDraft | null;
  /** The service "Connect a service" shows (the compose form's until another is chosen). */
  readonly 'connect.provider': ProviderId;
  readonly 'workflows.import': WorkflowDraft | null;
  /** The library image chosen as the edit panel's next reference (edit-references.tsx). */
  readonly 'references.pick': string;
  /** The version chosen in the viewer's stack strip (viewer-edit.tsx). */
  readonly 'viewer.stack': StackDraft | null;
} & {
  readonly [Field in `edit.${KeptEditField}`]: KeptEdit;
} & {
  readonly 'cap.period': CapPeriod;
  readonly 'cap.provider': ProviderId | '';
  readonly 'cap.kind': 'soft' | 'hard';
  readonly 'price.provider': ProviderId;
  readonly 'price.model': string;
  readonly 'price.basis': PriceBasis;
} & { readonly [Amount in `${AmountKind}.amount`]: string } & {
  readonly [Unit in `${AmountKind}.unit`]: CostUnit;
};

export interface FormDraftsSlice {
  /** The fields changed since the window started (or since their form cleared them). */
  formDrafts: Partial<FormDrafts>;
  formDraftSet<K extends keyof FormDrafts>(field: K, value: FormDrafts[K]): void;
  /** Forgets `field`'s value: its form shows its first (or saved) value again. */
  formDraftDrop(field: keyof FormDrafts): void;
}

export const createFormDraftsSlice: StateCreator<AppState, [], [], FormDraftsSlice> = (set) => ({
  formDrafts: {},
  formDraftSet(field, value) {
    set((state) =>
      state.formDrafts[field] === value
        ? {}
        : { formDrafts: { ...state.formDrafts, [field]: value } },
    );
  },
  formDraftDrop(field) {
    set((state) => {
      if (!(field in state.formDrafts)) return {};
      const { [field]: _dropped, ...rest } = state.formDrafts;
      return { formDrafts: rest };
    });
  },
});

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends FormDraftsSlice {}
}
