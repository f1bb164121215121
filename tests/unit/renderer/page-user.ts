/**
 * The user of the renderer's wired tests (startWiredApp, mountGallery): `userEvent.setup` without
 * its pointer-events check. Before each pointer action that check reads the computed
 * `pointer-events` of the target and of every ancestor, and in jsdom each element's computed style
 * matches jsdom's whole default style sheet: about 2 % of a wired Settings file's CPU. Here it can
 * find nothing: the app's style sheets never reach jsdom (vitest leaves CSS imports out) and the
 * renderer sets no inline `pointer-events`, so every element computes `auto`. page-user.test.ts
 * keeps both true: if either changes, this check is needed again.
 */
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';

/** userEvent's options, as `userEvent.setup` takes them. */
export type PageUserOptions = Parameters<typeof userEvent.setup>[0];

/** `userEvent.setup(options)` with the pointer-events check left out (see above). */
export function pageUser(options?: PageUserOptions): ReturnType<typeof userEvent.setup> {
  return userEvent.setup({ pointerEventsCheck: PointerEventsCheckLevel.Never, ...options });
}
