/** A field of Settings' add forms kept in the store (form-drafts.ts), read as `useState` is. */
import { useCallback } from 'react';
import { useAppStore } from './app-store';
import type { FormDrafts } from './form-drafts';

/** `field`'s kept value (`initial` until it is set) and its setter, as `useState` gives them. */
export function useFormDraft<K extends keyof FormDrafts>(
  field: K,
  initial: FormDrafts[K],
): [FormDrafts[K], (value: FormDrafts[K]) => void] {
  const value = useAppStore((state) => state.formDrafts[field] as FormDrafts[K] | undefined);
  const setDraft = useAppStore((state) => state.formDraftSet);
  const setValue = useCallback((next: FormDrafts[K]) => setDraft(field, next), [setDraft, field]);
  return [value ?? initial, setValue];
}
