/**
 * Says above the grid which of the gallery's filters narrow what the sidebar's view (All images, a
 * board, Rejected, a smart board…) shows, and how many images they leave, with the way to clear
 * them and keep the view (the header's "Clear filters" also leaves the view for All images). The filters stay when the view changes (as a search in a photo library
 * narrows whichever source is shown), so a view is never shown filtered without saying so, even
 * with the header's filters folded behind its button.
 */
import { Button } from '../../components/button';
import { activeLocale, t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { EMPTY_GALLERY_FILTERS, type GalleryFilters } from '../../store/gallery-list-model';
import './filter-notice.css';

/** The names of the filters in use besides the sidebar's view, in the bar's order. */
function filterNames(filters: GalleryFilters): string[] {
  const search = filters.search.trim();
  const names: Array<string | false> = [
    search !== '' && t('gallery.filterNotice.search', { text: search }),
    filters.favouriteOnly && t('gallery.favourite.label'),
    filters.credentialsOnly && t('gallery.credentials.label'),
    filters.provider !== '' && t('filter.service.label'),
    filters.model !== '' && t('gallery.model.label'),
    filters.rating > 0 && t('triage.filter.atLeast', { stars: filters.rating }),
    filters.tags.length > 0 && t('triage.tags.label'),
    filters.template !== '' && t('gallery.template.label'),
    filters.compare !== '' && t('gallery.compare.label'),
    filters.from !== '' && t('gallery.from.label'),
    filters.to !== '' && t('gallery.to.label'),
  ];
  return names.filter((name): name is string => name !== false);
}

/** The filters with those of the sidebar's view kept and every other one cleared. */
function viewOnly(filters: GalleryFilters): GalleryFilters {
  const { board, smart, unfiled, rejected } = filters;
  return { ...EMPTY_GALLERY_FILTERS, board, smart, unfiled, rejected };
}

export function FilterNotice(props: {
  readonly filters: GalleryFilters;
  /** How many images the filters leave (null: not counted yet). */
  readonly count: number | null;
}) {
  const names = filterNames(props.filters);
  if (names.length === 0) return null;
  const list = new Intl.ListFormat(activeLocale().tag, { type: 'conjunction' }).format(names);
  return (
    <div className="gallery__filter-notice">
      <span>
        {props.count === null
          ? t('gallery.filterNotice.uncounted', { names: list })
          : t('gallery.filterNotice.text', {
              names: list,
              shown: t('gallery.count', { count: props.count }),
            })}
      </span>
      <Button
        variant="ghost"
        size="small"
        onClick={() => {
          const state = useAppStore.getState();
          state.gallerySetFilters(viewOnly(props.filters));
          // The button goes with the notice: the focus to the search, never to the page.
          state.requestFocus('search');
        }}
      >
        {t('gallery.filterNotice.clear')}
      </Button>
    </div>
  );
}
