/**
 * Saves one setting at a time and keeps, per field, the main process's refusal (a sentence)
 * so it can be shown under that field.
 */
import { useCallback, useState } from 'react';
import type { SettingsPatch } from '../../../shared/domain/settings';
import { applyLocale, t } from '../../i18n';
import { toApiError, type ApiError } from '../../lib/api';
import { useAppStore } from '../../store/app-store';

export interface SettingSaver {
  /** Saves `patch`; answers whether it was accepted. */
  save(field: string, patch: SettingsPatch): Promise<boolean>;
  errorOf(field: string): ApiError | null;
  clearError(field: string): void;
}

export function useSettingSave(): SettingSaver {
  const update = useAppStore((state) => state.settingsUpdate);
  const confirm = useAppStore((state) => state.confirm);
  const [errors, setErrors] = useState<Readonly<Record<string, ApiError | null>>>({});
  const clearError = useCallback((field: string) => {
    setErrors((current) => (current[field] ? { ...current, [field]: null } : current));
  }, []);
  const save = useCallback(
    async (field: string, patch: SettingsPatch) => {
      try {
        await update(patch);
        clearError(field);
        // A new language says "Saved." in itself: it is shown before the confirmation is made.
        if (patch.language !== undefined) await applyLocale(patch.language);
        confirm(() => t('settings.saved'));
        return true;
      } catch (error) {
        setErrors((current) => ({ ...current, [field]: toApiError(error) }));
        return false;
      }
    },
    [update, clearError, confirm],
  );
  const errorOf = useCallback((field: string) => errors[field] ?? null, [errors]);
  return { save, errorOf, clearError };
}
