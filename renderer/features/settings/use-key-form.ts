/**
 * The key section's actions over its form state (key-form.ts): check a key with the service it
 * will be bound to, store it (weakly once the user agreed), remove the stored one.
 */
import { useReducer, type Dispatch } from 'react';
import type { ProviderId } from '../../../shared/domain/providers';
import { errorText, t } from '../../i18n';
import { problemOf, type Problem } from '../../lib/api';
import { useAppStore } from '../../store/app-store';
import {
  INITIAL_KEY_FORM,
  canSave,
  keyFormReducer,
  type KeyFormEvent,
  type KeyFormState,
} from './key-form';
import { needsConsent } from './key-labels';

/** A report's technical detail, when it has one, for a {@link Problem}. */
function detailOf(report: { readonly detail?: string | undefined }): Pick<Problem, 'detail'> {
  return report.detail === undefined ? {} : { detail: report.detail };
}

/**
 * Checks the key with the service it will be bound to (the saved address) before storing it:
 * a refused key is not stored; when the service cannot be asked, the user decides.
 */
async function checkKey(
  baseUrl: string,
  text: string,
  dispatch: Dispatch<KeyFormEvent>,
): Promise<'save' | 'stop'> {
  if (baseUrl === '') return 'save';
  const report = await useAppStore.getState().serviceTest(baseUrl, text);
  if (report.outcome === 'key_refused') {
    const message = t('settings.key.notSavedRefused', { reason: errorText(report) });
    dispatch({ type: 'failed', error: { message, ...detailOf(report) } });
    return 'stop';
  }
  if (report.outcome === 'unreachable' || report.outcome === 'failed') {
    dispatch({ type: 'uncheckable', why: { message: errorText(report), ...detailOf(report) } });
    return 'stop';
  }
  return 'save';
}

export interface KeyForm {
  readonly form: KeyFormState;
  readonly dispatch: Dispatch<KeyFormEvent>;
  /** Stores the typed key, weakly when `weak`; `checked` when the user chose to skip the check. */
  readonly store: (weak: boolean, checked?: boolean) => Promise<void>;
  /** Removes the stored key (the user confirmed). */
  readonly remove: () => Promise<void>;
}

/**
 * The key form of `provider`'s service. Today's contract's key is checked with its service first
 * ("Test connection"'s probe); another service's key is stored as typed, as its profile has no
 * harmless probe: its first task tells whether it works.
 */
export function useKeyForm(provider: ProviderId = 'pictor'): KeyForm {
  const pictor = provider === 'pictor';
  const setPictorKey = useAppStore((state) => state.keySet);
  const clearPictorKey = useAppStore((state) => state.keyClear);
  const setServiceKey = useAppStore((state) => state.serviceKeySet);
  const clearServiceKey = useAppStore((state) => state.serviceKeyClear);
  const keySet = (key: string, weak: boolean) =>
    pictor ? setPictorKey(key, weak) : setServiceKey(provider, key, weak);
  const keyClear = () => (pictor ? clearPictorKey() : clearServiceKey(provider));
  const confirm = useAppStore((state) => state.confirm);
  // Another service's key is not checked: no address to check it at (see above).
  const savedBaseUrl = useAppStore((state) => (pictor ? (state.settings?.baseUrl ?? '') : ''));
  const [form, dispatch] = useReducer(keyFormReducer, INITIAL_KEY_FORM);
  const { text } = form;
  const store = async (weak: boolean, checked = false): Promise<void> => {
    if (!checked && !canSave(form, weak)) return;
    if (!checked) dispatch({ type: 'save', weak });
    try {
      if (!weak && !checked && (await checkKey(savedBaseUrl, text, dispatch)) === 'stop') return;
      const next = await keySet(text, weak);
      if (!weak && needsConsent(next)) {
        dispatch({ type: 'consentNeeded' });
        return;
      }
      dispatch({ type: 'saved' });
      confirm(() => t('settings.key.savedAnnounce'));
    } catch (caught) {
      dispatch({ type: 'failed', error: problemOf(caught) });
    }
  };
  const remove = async (): Promise<void> => {
    dispatch({ type: 'closeRemove' });
    try {
      await keyClear();
      confirm(() => t(pictor ? 'settings.key.removedAnnounce' : 'settings.services.keyRemoved'));
    } catch (caught) {
      dispatch({ type: 'failed', error: problemOf(caught) });
    }
  };
  return { form, dispatch, store, remove };
}
