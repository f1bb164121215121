/**
 * Ctrl+Shift+H (⌘⇧H on a Mac) opens the prompt history from anywhere in the window, a field with
 * the focus included (it is the menu's View › Prompt History…, answered here so a host without
 * that menu has it too). Not while another dialog holds the window.
 */
import { useEffect } from 'react';
import { isMacPlatform } from '../lib/platform';
import { useAppStore } from '../store/app-store';
import type { ScreenKey } from './screen-keys';

/** Whether the key asks for the prompt history (`mac`: ⌘ is the modifier, else Ctrl). */
function isHistoryKey(event: ScreenKey, mac: boolean): boolean {
  const modifier = mac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
  if (!modifier || !event.shiftKey || event.altKey) return false;
  // By its place on the keyboard, or by the letter (a layout with no H there).
  return event.code === 'KeyH' || event.key.toLowerCase() === 'h';
}

export function usePromptHistoryKey(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || event.isComposing) return;
      const state = useAppStore.getState();
      if (!isHistoryKey(event, isMacPlatform(state.appInfo?.platform))) return;
      event.preventDefault();
      if (state.promptHistoryOpen || document.querySelector('[aria-modal="true"]')) return;
      state.promptHistoryShow(true);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
