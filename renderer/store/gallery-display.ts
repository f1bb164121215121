/**
 * How the gallery is shown: thumbnail size, order, whole or cropped tiles, and whether the
 * viewer's details panel is open. Kept in the window's localStorage, as the other purely visual
 * choices are (lib/dismissals.ts): nothing in the main process depends on them. A stored value
 * is parsed field by field, so one unreadable choice (an older or edited profile) falls back
 * alone and the others are kept; storage that cannot be read or written means the defaults.
 */
import { z } from 'zod';
import { gallerySortSchema } from '../../shared/domain/gallery-item';
import { readStored, writeStored } from '../lib/stored-value';

export const THUMBNAIL_SIZES = ['small', 'medium', 'large'] as const;
export type ThumbnailSize = (typeof THUMBNAIL_SIZES)[number];

/** Narrowest a tile may get at each size before a column is dropped (CSS pixels). */
export const MIN_TILE_OF: Record<ThumbnailSize, number> = { small: 120, medium: 168, large: 264 };

const displaySchema = z.object({
  thumbnailSize: z.enum(THUMBNAIL_SIZES).catch('medium'),
  sort: gallerySortSchema().catch('newest'),
  /** Tiles show the whole image (letterboxed) instead of filling the square. */
  uncropped: z.boolean().catch(false),
  /** The viewer's details panel is hidden. */
  detailsHidden: z.boolean().catch(false),
});
export type GalleryDisplay = z.infer<typeof displaySchema>;

const DEFAULT_GALLERY_DISPLAY: GalleryDisplay = {
  thumbnailSize: 'medium',
  sort: 'newest',
  uncropped: false,
  detailsHidden: false,
};

const KEY = 'pictor.galleryDisplay';

export function loadGalleryDisplay(): GalleryDisplay {
  return readStored(KEY, displaySchema, DEFAULT_GALLERY_DISPLAY);
}

export function saveGalleryDisplay(display: GalleryDisplay): void {
  writeStored(KEY, display);
}
