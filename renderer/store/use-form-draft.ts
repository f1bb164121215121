/** A field of Settings' forms kept in the store (form-drafts.ts), read as `useState` is. */
import { useCallback, useEffect } from 'react';
import { useAppStore } from './app-store';
import type { FormDrafts, KeptEdit, KeptEditField } from './form-drafts';

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

/**
 * What `kept` shows over the saved value `saved`: its text while it was typed over that value, or
 * else `shown`, the saved value as its field writes it.
 */
export function keptText(kept: KeptEdit | undefined, saved: string, shown: string = saved): string {
  return kept !== undefined && kept.over === saved ? kept.text : shown;
}

/**
 * A field saved on its own (Settings' service name and addresses, a date filter): what is typed
 * there (`shown`, the saved value `saved` as the field writes it, until something is) and its
 * setter. Kept in the store, so a new language, which draws the window anew, keeps an unsaved
 * edit (a date typed over a day the new language writes otherwise too); a newly saved value (this
 * field's Save, another window's, "Clear filters") replaces it, as the field showed it before.
 */
export function useKeptEdit(
  field: KeptEditField,
  saved: string,
  shown: string = saved,
): [string, (text: string) => void] {
  const key = `edit.${field}` as const;
  const kept = useAppStore((state) => state.formDrafts[key]);
  const setDraft = useAppStore((state) => state.formDraftSet);
  const drop = useAppStore((state) => state.formDraftDrop);
  // An edit typed over a value saved since is over: dropped, so it never comes back.
  useEffect(() => {
    if (kept !== undefined && kept.over !== saved) drop(key);
  }, [kept, saved, drop, key]);
  const setText = useCallback(
    (text: string) => (text === shown ? drop(key) : setDraft(key, { text, over: saved })),
    [saved, shown, drop, setDraft, key],
  );
  return [keptText(kept, saved, shown), setText];
}
