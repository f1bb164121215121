/**
 * Confirmations of actions that worked ("Image copied.", "Saved."): shown for a few seconds in
 * the toast corner, whose polite region also speaks them (so they are not announced twice).
 */
import type { StateCreator } from 'zustand';
import type { AppState } from './app-state';

/** A button on a confirmation that takes the action back ("Undo"). */
export interface ConfirmationAction {
  readonly label: string;
  readonly run: () => void;
}

/** One action's outcome, in a sentence for the user. */
export interface Confirmation {
  readonly id: number;
  readonly message: string;
  /** A way back, shown as a button (the toast then stays longer). */
  readonly action?: ConfirmationAction;
}

const MAX_CONFIRMATIONS = 3;

export interface ConfirmationsSlice {
  confirmations: Confirmation[];
  /** Shows `message` as a confirmation toast (a repeat replaces the older one, so it is said again). */
  confirm(message: string, action?: ConfirmationAction): void;
  dismissConfirmation(id: number): void;
}

let confirmationSeq = 0;

export const createConfirmationsSlice: StateCreator<AppState, [], [], ConfirmationsSlice> = (
  set,
) => ({
  confirmations: [],
  confirm(message, action) {
    confirmationSeq += 1;
    const confirmation: Confirmation = {
      id: confirmationSeq,
      message,
      ...(action ? { action } : {}),
    };
    set((state) => ({
      confirmations: [
        ...state.confirmations.filter((shown) => shown.message !== message),
        confirmation,
      ].slice(-MAX_CONFIRMATIONS),
    }));
  },
  dismissConfirmation(id) {
    set((state) => ({ confirmations: state.confirmations.filter((shown) => shown.id !== id) }));
  },
});
