/**
 * The window's status area as an image viewer shows it in its own frame (the viewer covers the
 * window's, which then stays empty). The status area is the window's (shell/status-area.tsx) and
 * the viewer a feature's, which may not import the window: so the status area registers itself
 * here when its module loads, and the viewer draws whatever is registered. Drawn inside the
 * viewer, its keys and focus stay the dialog's (Escape, the Tab trap).
 */
import type { ComponentType } from 'react';

let registered: ComponentType | null = null;

/** What a viewer shows as the status area in its frame (the window's shell sets it, once). */
export function provideViewerStatus(component: ComponentType): void {
  registered = component;
}

/** The status area in a viewer's frame; nothing while no window has provided one. */
export function ViewerStatus() {
  const Shown = registered;
  return Shown ? <Shown /> : null;
}
