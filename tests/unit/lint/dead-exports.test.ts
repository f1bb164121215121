/**
 * No product export that nothing needs (tests/support/dead-exports.ts says what counts). Today's
 * remainder is listed below, each with why it stays; the list may only shrink: an entry that is
 * fixed must leave it, and a new dead export fails until it is removed (or, for a seam a test
 * needs, listed with its reason).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findDeadExports } from '../../support/dead-exports';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Product code only tests use, on purpose: they observe or install state. */
const SEAMS = [
  // The locale the main process speaks now, which the language tests check after a change.
  'electron/core/i18n/main-text.ts#mainLocale',
  // Installs a loaded catalogue without the dynamic import, for the renderer's i18n tests.
  'renderer/i18n/index.ts#setCatalogue',
  // The live count of the shared clock's subscribers: a test checks none leaks.
  'renderer/lib/use-now.ts#clockSubscribers',
  // Writes provenance into bytes in memory: tests make images that carry it.
  'electron/core/gallery/metadata/embed.ts#embedProvenanceInBuffer',
];

/** In renderer files the renderer's UX branch is changing now: removed once it is merged. */
const AFTER_MERGES = [
  'renderer/features/gallery/gallery-filters.tsx#SEARCH_DEBOUNCE_MS',
  'renderer/features/gallery/gallery-grid.tsx#GRID_PADDING',
  'renderer/features/gallery/gallery-grid.tsx#jumpWanted',
  'renderer/features/gallery/gallery-tile.tsx#shortPrompt',
  'renderer/features/gallery/gallery-tile.tsx#tileStateLabel',
  'renderer/features/gallery/grid-geometry.ts#MIN_TILE',
  'renderer/features/gallery/grid-geometry.ts#TILE_GAP',
  'renderer/features/gallery/use-grid-focus.ts#findTile',
  'renderer/features/gallery/use-image-actions.ts#outcome',
  'renderer/features/gallery/zoom-pan.ts#FIT_MARGIN',
  'renderer/features/gallery/zoom-pan.ts#PAN_STEP',
  'renderer/features/gallery/zoom-pan.ts#clampOffset',
  'renderer/features/settings/library-section.tsx#exportToArchive',
  'renderer/features/shell/banners.tsx#DemoBanner',
  'renderer/features/shell/banners.tsx#KeyProblemBanner',
  'renderer/features/shell/banners.tsx#NoticeBanners',
  'renderer/features/shell/banners.tsx#OfflineBanner',
  'renderer/features/shell/banners.tsx#RefusedSubmitBanner',
  'renderer/features/shell/use-theme.ts#resolveTheme',
  'renderer/features/tasks/task-image-viewer.tsx#openImageLabel',
  'renderer/features/tasks/task-message.tsx#ROW_SENTENCE_FITS',
  'renderer/features/tasks/task-message.tsx#needsFullMessage',
  'renderer/features/tasks/task-status.ts#failedImages',
  'renderer/features/tasks/use-row-height.ts#WIDE_QUERY',
  'renderer/features/tasks/use-row-height.ts#rowHeightPx',
  'renderer/i18n/index.ts#formatDate',
  'renderer/i18n/index.ts#formatTime',
  'renderer/i18n/index.ts#locale',
  'renderer/i18n/index.ts#systemLocales',
  'renderer/lib/selection.ts#isSelected',
  'renderer/lib/selection.ts#selectionSize',
  'renderer/store/compose-slice.ts#COMPOSE_FIELDS',
  'renderer/store/compose-slice.ts#afterSubmit',
  'renderer/store/events.ts#runMenuCommand',
  'renderer/store/gallery-display.ts#DEFAULT_GALLERY_DISPLAY',
  'renderer/store/gallery-list-model.ts#compareFor',
  'renderer/store/gallery-list-model.ts#compareItems',
  'renderer/store/gallery-list-model.ts#galleryItemsOf',
  'renderer/store/paged-list.ts#EMPTY_LIST',
  'renderer/store/task-list-model.ts#STATUS_GROUPS',
  'renderer/store/task-list-model.ts#newerFirst',
  'renderer/store/task-list-model.ts#statusesOf',
  'renderer/store/task-selection.ts#loadedOrder',
  'renderer/store/task-selection.ts#selectedIds',
  'renderer/store/typical-duration.ts#MIN_SAMPLES',
  'renderer/store/typical-duration.ts#RECENT_SAMPLES',
];

describe('dead exports', () => {
  it('are only the listed ones, and every listed one is still dead', () => {
    const found = findDeadExports(root).map((dead) => dead.id);
    expect([...found].sort()).toEqual([...SEAMS, ...AFTER_MERGES].sort());
  }, 180_000);
});
