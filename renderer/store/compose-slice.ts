/**
 * The compose form: the draft as typed, its validation, and the submit that never blocks (the
 * form stays usable while earlier submits are in flight; new tasks go straight into the list).
 * The actions come in groups: the draft and a refused submit's return (compose-draft-actions.ts),
 * the submit and its service (compose-submit-actions.ts); the draft as data is compose-model.ts.
 */
import type { StateCreator } from 'zustand';
import type { ProviderId } from '../../shared/domain/providers';
import type { Settings } from '../../shared/domain/settings';
import { DEFAULT_SETTINGS } from '../../shared/domain/settings';
import type { TaskRefusal } from '../../shared/ipc/contract';
import type { GenerationRequest } from '../../shared/service/wire';
import type { TaskTemplate } from '../../shared/domain/task-template';
import type { ApiError } from '../lib/api';
import type { AppState } from './app-state';
import type { ComposeDraft, ComposeOutcome, ComposeRefusal } from './compose-draft';
import { composeDraftActions, composeRefusalActions } from './compose-draft-actions';
import { draftFromDefaults } from './compose-model';
import { composeSubmitActions } from './compose-submit-actions';

export type {
  ComposeDraft,
  ComposeErrors,
  ComposeField,
  ComposeOutcome,
  ComposeRefusal,
} from './compose-draft';

export interface ComposeSlice {
  composeDraft: ComposeDraft;
  /** The account-level refusal to show in a banner, or null. */
  composeRefusal: ComposeRefusal | null;
  /** The last submit the service has not accepted or refused yet: its draft comes back if refused. */
  composeLastSent: { readonly draft: ComposeDraft; readonly localIds: readonly string[] } | null;
  /** A submit was refused for the account: the banner counts it, the draft comes back. */
  composeApplyRefusal(refusal: TaskRefusal): void;
  /**
   * A task of the last submit was refused (`submit_failed`): what was sent comes back into the
   * form, unless the user has already typed something else there.
   */
  composeRestoreRefused(localId: string): void;
  composeDismissRefusal(): void;
  /** True after a submit was refused for an invalid field, until the next good submit. */
  composeAttempted: boolean;
  composeSubmitError: ApiError | null;
  /** Submits sent and not answered yet (the form stays usable meanwhile). */
  composePending: number;
  /** Models used in this session, most recent first (offered before older ones). */
  composeModels: string[];
  /** Prompts sent lately, newest first (Up in an empty prompt recalls them; kept across restarts). */
  composeRecent: string[];
  /** Brings back the draft and the recent prompts the last run left (once, at start). */
  composeRestore(): void;
  composeSetDraft(patch: Partial<ComposeDraft>): void;
  /** Follows changed defaults in fields the user has not changed from the old default. */
  composeApplyDefaults(next: Settings, previous: Settings | null): void;
  /**
   * Fills the form with an earlier request ("Use this prompt": seed-slice.ts reuseTask), and with its
   * service when given (a model is a name on one service) and a batch's number of tasks.
   */
  reusePrompt(
    request: GenerationRequest,
    provider?: ProviderId,
    count?: number,
    template?: TaskTemplate,
  ): void;
  composeDismissError(): void;
  composeSubmit(): Promise<ComposeOutcome>;
  /**
   * Chooses the service the form's tasks go to, at once; the model follows the service's default
   * unless the user typed another. The choice is also remembered as a setting (kept across
   * restarts), in the background: a submit never waits for it, nor reads it.
   */
  composeChooseService(provider: ProviderId): Promise<void>;
  /**
   * "Generate into": the board the user chose in the form's Board field (`path` null: None), or
   * null while the field follows the target board, its default (compose-model.ts's
   * composeBoardOf says which board a submit names).
   */
  composeBoardChoice: { readonly path: string | null } | null;
  /** Chooses the Board field's board (null: None) for this session's submits. */
  composeChooseBoard(path: string | null): void;
}

export const createComposeSlice: StateCreator<AppState, [], [], ComposeSlice> = (set, get) => ({
  composeDraft: { prompt: '', ...draftFromDefaults(DEFAULT_SETTINGS) },
  composeRefusal: null,
  composeLastSent: null,
  ...composeRefusalActions(set, get),
  composeAttempted: false,
  composeSubmitError: null,
  composePending: 0,
  composeModels: [],
  composeRecent: [],
  composeBoardChoice: null,
  ...composeDraftActions(set, get),
  ...composeSubmitActions(set, get),
});

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends ComposeSlice {}
}
