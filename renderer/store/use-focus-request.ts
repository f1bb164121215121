/**
 * Focuses a field when a menu command or a banner asks for it (see UiSlice.requestFocus).
 * A request is consumed by the field that takes it, so a screen mounted later never acts on
 * an old one.
 */
import { useEffect, type RefObject } from 'react';
import { useAppStore } from './app-store';
import type { FocusTarget } from './ui-slice';

export function useFocusRequest(
  target: FocusTarget,
  ref: RefObject<HTMLElement | null>,
  enabled = true,
): void {
  const request = useAppStore((state) => state.focusRequest);
  const consume = useAppStore((state) => state.consumeFocusRequest);
  useEffect(() => {
    if (!enabled || request?.target !== target || !ref.current) return;
    ref.current.focus();
    if (ref.current instanceof HTMLInputElement || ref.current instanceof HTMLTextAreaElement) {
      ref.current.select();
    }
    consume(request.seq);
  }, [request, target, ref, enabled, consume]);
}
