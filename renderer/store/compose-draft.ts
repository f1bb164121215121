/**
 * The compose form's own types: the draft as typed, its fields and their errors, a submit's
 * outcome and a refusal's banner (the form's slice, compose-slice.ts, and its actions share them).
 */
import type { ProviderId } from '../../shared/domain/providers';
import type { TaskItem, TaskRefusal } from '../../shared/ipc/contract';
import type { MessageKey } from '../i18n';
import type { ApiError } from '../lib/api';

/**
 * The form as typed. `provider` is the service its tasks go to (carried with the submit, never
 * read from the settings when it is sent); `size`/`quality` hold a preset, '' (service default)
 * or the custom text.
 */
export interface ComposeDraft {
  readonly provider: ProviderId;
  readonly prompt: string;
  readonly model: string;
  readonly size: string;
  readonly sizeCustom: boolean;
  readonly quality: string;
  readonly qualityCustom: boolean;
  readonly count: string;
  /**
   * The model's own options as typed, per service and model (compose-params.ts' paramsKey): a
   * model chosen again finds its options as they were left.
   */
  readonly params: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** The seed as typed; empty: the service draws one. */
  readonly seed: string;
  /** Kept after a submit (locked); else the field empties, and the next submit draws anew. */
  readonly seedLocked: boolean;
}

export type ComposeField = 'prompt' | 'model' | 'size' | 'quality' | 'count';
export type ComposeErrors = Partial<Record<ComposeField, MessageKey>>;

export type ComposeOutcome =
  | { readonly ok: true; readonly items: TaskItem[] }
  | {
      readonly ok: false;
      readonly field?: ComposeField;
      readonly error?: ApiError;
      /** Main had no key for the chosen service, which the form's missing-key notice names. */
      readonly missingKey?: boolean;
    };

/** A submit refused for the account (one banner for every such attempt until dismissed). */
export interface ComposeRefusal {
  readonly kind: TaskRefusal['kind'];
  /** The service that refused: the banner shows only while the form has that service. */
  readonly provider: ProviderId;
  /** Attempts refused since the banner appeared. */
  readonly count: number;
}
