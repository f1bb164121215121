/**
 * The main window's remembered place as stored with the settings. Where to put it back when its
 * screen is gone is decided by electron/app/window/window-bounds.ts (fitWindowState).
 */
import { z } from 'zod';

const coordinate = z.number().int().min(-100_000).max(100_000);
const extent = z.number().int().min(1).max(100_000);

/** The shape of window.ts's WindowState: no x/y means "centre it". */
export const windowBoundsSchema = z.object({
  x: coordinate.optional(),
  y: coordinate.optional(),
  width: extent,
  height: extent,
  /** Restore maximized; x/y/width/height are then the normal (unmaximized) bounds. */
  maximized: z.boolean().optional(),
});
export type WindowBounds = z.infer<typeof windowBoundsSchema>;
