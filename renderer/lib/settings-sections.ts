/**
 * Settings' sections a user can jump to (its index, the compose form's missing-key link): each
 * section's element id, and the jump itself, which brings the section into view and moves the
 * focus there, so the keyboard goes on from where the eye went.
 */
import type { ProviderId } from '../../shared/domain/providers';

/** The id of the Settings section of `provider`'s service. */
export function serviceSectionId(provider: ProviderId): string {
  return `settings-service-${provider}`;
}

/** Brings the element with `id` into view and focuses it (it has `tabIndex={-1}`). */
export function jumpTo(id: string): void {
  const target = document.getElementById(id);
  if (!target) return;
  // Not in every DOM (jsdom): the focus brings it into view there anyway.
  target.scrollIntoView?.({ block: 'start' });
  target.focus({ preventScroll: true });
}
