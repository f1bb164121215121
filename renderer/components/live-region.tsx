/**
 * Announces status changes to screen readers: `announce(text)` from anywhere, one polite
 * region (mounted once by the app) speaks it.
 */
import { useEffect, useState } from 'react';

type Listener = (text: string) => void;
const listeners = new Set<Listener>();

/** Says `text` politely through the app's live region (no-op when none is mounted). */
export function announce(text: string): void {
  for (const listener of listeners) listener(text);
}

/** The app's one live region; renders visually hidden. */
export function LiveRegion() {
  const [message, setMessage] = useState({ text: '', seq: 0 });
  useEffect(() => {
    const listener: Listener = (text) => setMessage((prev) => ({ text, seq: prev.seq + 1 }));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  // The key remounts the text node so the same sentence twice is spoken twice.
  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
      <span key={message.seq}>{message.text}</span>
    </div>
  );
}
