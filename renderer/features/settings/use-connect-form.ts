/**
 * "Connect a service" in one form: the service's address, its key, Test, Save, in that order.
 * Nothing here is a second copy of Settings' logic: the address is saved with the settings
 * slice's own action, the key through the key form of Settings (use-key-form.ts: main checks it
 * with the service first, asks for weak storage or to save it unchecked only when it must), the
 * test through Settings' connection test. The address is saved before the key is tested or
 * stored, because main sends a key being entered only to the address saved for its service: that
 * order is what makes it one step.
 */
import { useState } from 'react';
import { PROVIDERS, type ProviderId } from '../../../shared/domain/providers';
import {
  DEFAULT_SETTINGS,
  type Settings,
  type SettingsPatch,
} from '../../../shared/domain/settings';
import { typedAddress, withAddress } from '../../../shared/domain/submit-target';
import { t } from '../../i18n';
import { failure, toApiError, type ApiError } from '../../lib/api';
import { useAppStore } from '../../store/app-store';
import { useKeptEdit } from '../../store/use-form-draft';
import { useConnectionTest } from './connection-test';
import { useKeyForm, type KeyForm } from './use-key-form';

/**
 * The settings change that gives `provider`'s service the address `text`, or null when it has
 * it already. Another service's own address is kept as "no address of the user's own", as
 * Settings keeps it.
 */
function addressPatch(
  settings: Settings,
  provider: ProviderId,
  text: string,
): SettingsPatch | null {
  const typed = text.trim();
  if (typed === typedAddress(settings, provider)) return null;
  return { serviceBaseUrls: withAddress(settings, provider, typed).serviceBaseUrls };
}

export interface ConnectForm {
  readonly address: string;
  setAddress(text: string): void;
  /** Why the address was not saved (main's sentence), until it is edited. */
  readonly addressProblem: ApiError | null;
  readonly keyForm: KeyForm;
  readonly test: ReturnType<typeof useConnectionTest>;
  /** Saves the address, then asks the service about the key typed (or else the stored one). */
  runTest(): Promise<void>;
  /**
   * Saves the address, then the key: main checks it with the service before it keeps it. A
   * service that needs no key (a local ComfyUI) is connected by its address alone.
   */
  save(): Promise<void>;
}

/**
 * The form of `provider`'s service; `onConnected` once its key is stored (checked or not), or,
 * for a service whose key is optional, once its address is saved without one (`null`).
 */
export function useConnectForm(
  provider: ProviderId,
  onConnected: (checked: boolean | null) => void,
): ConnectForm {
  const settings = useAppStore((state) => state.settings) ?? DEFAULT_SETTINGS;
  const update = useAppStore((state) => state.settingsUpdate);
  // Filled in: the address the service has now (for the known providers, their own). What is
  // typed over it is the store's (form-drafts.ts): a new language keeps it.
  const [address, setText] = useKeptEdit('connect.address', typedAddress(settings, provider));
  const [addressProblem, setProblem] = useState<ApiError | null>(null);
  const keyForm = useKeyForm(provider, onConnected);
  const test = useConnectionTest(provider, address, keyForm.form.text);

  const saveAddress = async (): Promise<boolean> => {
    if (address.trim() === '') {
      setProblem(failure(() => t('settings.connect.addressNeeded')));
      return false;
    }
    const patch = addressPatch(settings, provider, address);
    if (!patch) return true;
    try {
      await update(patch);
      return true;
    } catch (caught) {
      setProblem(toApiError(caught));
      return false;
    }
  };
  return {
    address,
    setAddress(text) {
      setText(text);
      setProblem(null);
    },
    addressProblem,
    keyForm,
    test,
    async runTest() {
      if (await saveAddress()) await test.test();
    },
    async save() {
      if (keyForm.form.text.trim() !== '') {
        if (await saveAddress()) await keyForm.store(false);
      } else if (PROVIDERS[provider].keyOptional === true && (await saveAddress())) {
        onConnected(null);
      }
    },
  };
}
