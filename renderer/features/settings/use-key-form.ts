/**
 * The key section's actions over its form state (key-form.ts): save a key (main checks it with
 * the service it will be bound to first, for every service the same way; weakly once the user
 * agreed; unchecked once the user said so), remove the stored one.
 */
import { useReducer, type Dispatch } from 'react';
import { PROVIDERS, type ProviderId } from '../../../shared/domain/providers';
import { errorText, t } from '../../i18n';
import { problemOf, type Problem } from '../../lib/api';
import { useAppStore } from '../../store/app-store';
import type { KeySave } from '../../store/settings-slice';
import {
  INITIAL_KEY_FORM,
  canSave,
  keyFormReducer,
  savingWeakly,
  type KeyFormEvent,
  type KeyFormState,
} from './key-form';
import { keyStatusText, needsConsent } from '../../lib/key-labels';

/** A report's words and technical detail, for a {@link Problem}. */
function problemOfReport(report: Extract<KeySave, { report: unknown }>['report']): Problem {
  const message = errorText(report);
  return report.detail === undefined ? { message } : { message, detail: report.detail };
}

/**
 * What the form does with main's answer to a save: done (told to `done`, with whether the
 * service checked it), ask for consent, say why the service refused the key (beside the field),
 * or ask whether to save a key that could not be checked.
 */
function applySave(
  saved: KeySave,
  dispatch: Dispatch<KeyFormEvent>,
  done: (checked: boolean) => void,
): void {
  switch (saved.outcome) {
    case 'saved': {
      dispatch({ type: 'saved' });
      done(saved.status.check?.outcome === 'accepted');
      return;
    }
    case 'storage':
      if (needsConsent(saved.status)) dispatch({ type: 'consentNeeded' });
      else {
        const message = keyStatusText(saved.status) ?? t('settings.key.notSavedStorage');
        dispatch({ type: 'failed', error: { message } });
      }
      return;
    case 'refused': {
      const { message, detail } = problemOfReport(saved.report);
      const said = t('settings.key.notSavedRefused', { reason: message });
      const error = detail === undefined ? { message: said } : { message: said, detail };
      dispatch({ type: 'failed', error, refused: true });
      return;
    }
    case 'unchecked':
      dispatch({ type: 'uncheckable', why: problemOfReport(saved.report) });
  }
}

export interface KeyForm {
  readonly form: KeyFormState;
  readonly dispatch: Dispatch<KeyFormEvent>;
  /** Saves the typed key, weakly when `weak`; without its check when the user chose that. */
  readonly store: (weak: boolean, skipCheck?: boolean) => Promise<void>;
  /** The user answered "Save the key without checking it?" with yes. */
  readonly saveUnchecked: () => Promise<void>;
  /** Removes the stored key (the user confirmed). */
  readonly remove: () => Promise<void>;
}

/**
 * The key form of `provider`'s service: every service's key is saved the same way. `onSaved`
 * replaces the announcement of a stored key ("Key saved.") with the caller's own.
 */
export function useKeyForm(
  provider: ProviderId = 'pictor',
  onSaved?: (checked: boolean) => void,
): KeyForm {
  // The service at the user's own address keeps the seed's own key words.
  const pictor = PROVIDERS[provider].defaultBaseUrl === null;
  const keySave = useAppStore((state) => state.serviceKeySave);
  const clearServiceKey = useAppStore((state) => state.serviceKeyClear);
  const confirm = useAppStore((state) => state.confirm);
  const [form, dispatch] = useReducer(keyFormReducer, INITIAL_KEY_FORM);
  const { text } = form;
  const store = async (weak: boolean, skipCheck = false): Promise<void> => {
    if (!skipCheck && !canSave(form, weak)) return;
    if (!skipCheck) dispatch({ type: 'save', weak });
    try {
      const saved = await keySave(provider, text, { allowWeakStorage: weak, skipCheck });
      applySave(saved, dispatch, (checked) => {
        if (onSaved) onSaved(checked);
        else {
          const said = checked
            ? 'settings.key.savedAnnounce'
            : 'settings.key.savedUncheckedAnnounce';
          confirm(() => t(said));
        }
      });
    } catch (caught) {
      dispatch({ type: 'failed', error: problemOf(caught) });
    }
  };
  const remove = async (): Promise<void> => {
    dispatch({ type: 'closeRemove' });
    try {
      await clearServiceKey(provider);
      confirm(() => t(pictor ? 'settings.key.removedAnnounce' : 'settings.services.keyRemoved'));
    } catch (caught) {
      dispatch({ type: 'failed', error: problemOf(caught) });
    }
  };
  const saveUnchecked = (): Promise<void> => {
    dispatch({ type: 'saveUnchecked' });
    return store(savingWeakly(form.phase), true);
  };
  return { form, dispatch, store, saveUnchecked, remove };
}
