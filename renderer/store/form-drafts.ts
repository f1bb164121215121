/**
 * What is typed or chosen in Settings' "add" forms (a spending cap, a price) before it is added.
 * A new language draws the window anew (app.tsx keys it on the language), so a form's own state
 * was lost at a switch: half a price typed, its service and basis chosen. Each value lives here
 * under its field's name and a form reads it with `useFormDraft` (use-form-draft.ts) as it would `useState`;
 * the form clears what it added. The API key field is not here, on purpose: a key typed and not
 * saved is never kept beyond its field.
 */
import type { StateCreator } from 'zustand';
import type { AmountKind } from '../../shared/domain/cost-amounts';
import type { CapPeriod } from '../../shared/domain/cost-ledger';
import type { ProviderId } from '../../shared/domain/providers';
import type { CostUnit, PriceBasis } from '../../shared/domain/task-cost';
import type { AppState } from './app-state';

/** Every kept field and its value's type. */
export type FormDrafts = {
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
});

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends FormDraftsSlice {}
}
