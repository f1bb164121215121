/**
 * The key form's state machine: what the user typed, whether a save is on its way, whether
 * the app is asking to store the key weakly, and the remove confirmation. One reducer, so a
 * state such as "saving and asking at once" cannot be written by accident.
 */
import type { Problem } from '../../lib/api';

/**
 * `editing`: the field takes a key. `saving`: a save is on its way (`weak` once the user
 * agreed to weak storage), its check with the service first. `unchecked`: the service could
 * not be asked about the key; the user decides whether to save it without checking (weakly, when
 * they agreed to that before). `consent`: the save was refused until the user agrees to weak
 * storage (asked before the service is).
 */
export type KeyPhase =
  | { readonly name: 'editing' }
  | { readonly name: 'saving'; readonly weak: boolean }
  | { readonly name: 'unchecked'; readonly why: Problem; readonly weak: boolean }
  | { readonly name: 'consent' };

export interface KeyFormState {
  readonly phase: KeyPhase;
  /** The key as typed; emptied once stored or abandoned. */
  readonly text: string;
  /** The form is open over a stored key. */
  readonly replacing: boolean;
  /** The remove confirmation is open (over whatever the form was doing). */
  readonly confirmingRemove: boolean;
  /** The last failure, until dismissed or the next save. */
  readonly error: Problem | null;
}

export type KeyFormEvent =
  | { readonly type: 'typed'; readonly text: string }
  | { readonly type: 'replace' }
  | { readonly type: 'cancelReplace' }
  | { readonly type: 'save'; readonly weak: boolean }
  | { readonly type: 'consentNeeded' }
  /** The service could not be asked about the key (unreachable, failing): ask the user. */
  | { readonly type: 'uncheckable'; readonly why: Problem }
  /** The user chose to save the key the service could not check. */
  | { readonly type: 'saveUnchecked' }
  | { readonly type: 'saved' }
  | { readonly type: 'declined' }
  /** The save failed; `refused`: the service refused the key (not the storage). */
  | { readonly type: 'failed'; readonly error: Problem; readonly refused?: boolean }
  | { readonly type: 'dismissError' }
  | { readonly type: 'askRemove' }
  | { readonly type: 'closeRemove' };

export const INITIAL_KEY_FORM: KeyFormState = {
  phase: { name: 'editing' },
  text: '',
  replacing: false,
  confirmingRemove: false,
  error: null,
};

const EDITING: KeyPhase = { name: 'editing' };
const CONSENT: KeyPhase = { name: 'consent' };

/** Whether the user is being asked about weak storage (also while that answer is being saved). */
export function askingConsent(phase: KeyPhase): boolean {
  return phase.name === 'consent' || (phase.name === 'saving' && phase.weak);
}

/** Whether a save (a weak one after consent) may start now: one at a time, never of nothing. */
export function canSave(state: KeyFormState, weak: boolean): boolean {
  return state.phase.name === (weak ? 'consent' : 'editing') && state.text.trim() !== '';
}

/** The question about a key the service could not check, while it is asked. */
export function uncheckedWhy(phase: KeyPhase): Problem | null {
  return phase.name === 'unchecked' ? phase.why : null;
}

/** Whether the key is being saved weakly (the user agreed to weak storage for it). */
export function savingWeakly(phase: KeyPhase): boolean {
  return (phase.name === 'saving' || phase.name === 'unchecked') && phase.weak;
}

export function keyFormReducer(state: KeyFormState, event: KeyFormEvent): KeyFormState {
  const { phase } = state;
  switch (event.type) {
    case 'typed':
      // Another key: what was said of the last one (refused, say) no longer applies.
      return askingConsent(phase) ? state : { ...state, text: event.text, error: null };
    case 'replace':
      return { ...state, replacing: true };
    case 'cancelReplace':
      return { ...state, replacing: false, text: '' };
    case 'save':
      if (!canSave(state, event.weak)) return state;
      return { ...state, phase: { name: 'saving', weak: event.weak }, error: null };
    case 'consentNeeded':
      return phase.name === 'saving' ? { ...state, phase: { name: 'consent' } } : state;
    case 'uncheckable':
      return phase.name === 'saving'
        ? { ...state, phase: { name: 'unchecked', why: event.why, weak: phase.weak } }
        : state;
    case 'saveUnchecked':
      return phase.name === 'unchecked'
        ? { ...state, phase: { name: 'saving', weak: phase.weak }, error: null }
        : state;
    case 'saved':
      return phase.name === 'saving'
        ? { ...state, phase: EDITING, text: '', replacing: false }
        : state;
    case 'declined':
      if (phase.name === 'unchecked') return { ...state, phase: EDITING };
      return phase.name === 'consent' ? { ...state, phase: EDITING, text: '' } : state;
    case 'failed':
      // A weak save the storage refused leaves the question open: try again or decline. A key
      // its service refused goes back to the field, with the reason beside it.
      return {
        ...state,
        phase: phase.name === 'saving' ? (phase.weak && !event.refused ? CONSENT : EDITING) : phase,
        error: event.error,
      };
    case 'dismissError':
      return { ...state, error: null };
    case 'askRemove':
      return { ...state, confirmingRemove: true };
    case 'closeRemove':
      return { ...state, confirmingRemove: false };
  }
}
