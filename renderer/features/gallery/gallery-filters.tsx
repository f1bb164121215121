import { useCallback, useRef } from 'react';
import { Button } from '../../components/button';
import { HeaderPanel } from '../../components/header-panel';
import { SelectField } from '../../components/select-field';
import { SearchInput } from '../../components/search-input';
import { ServiceFilter } from '../../components/service-filter';
import { Toolbar } from '../../components/toolbar';
import { t } from '../../i18n';
import { useLoaded } from '../../store/use-loaded';
import { useFocusRequest } from '../../store/use-focus-request';
import { CompareFilter } from './compare-filter';
import { DateField } from './date-field';
import {
  EMPTY_GALLERY_FILTERS,
  hasActiveFilters,
  type GalleryFilters,
} from '../../store/gallery-list-model';

export interface GalleryFiltersBarProps {
  readonly filters: GalleryFilters;
  readonly models: readonly string[];
  readonly onChange: (patch: Partial<GalleryFilters>) => void;
  /** False while another screen is shown (the search then ignores focus requests). */
  readonly active?: boolean;
  /** All but the search behind a "Filters" button (a small window). */
  readonly folded?: boolean;
}

/** One of the bar's on/off filters. */
function FilterCheck(props: {
  readonly label: string;
  readonly checked: boolean;
  readonly onChange: (checked: boolean) => void;
}) {
  return (
    <label className="checkbox gallery-filters__check">
      <input
        type="checkbox"
        checked={props.checked}
        onChange={(event) => props.onChange(event.target.checked)}
      />
      {props.label}
    </label>
  );
}

/**
 * The on/off filters and the service: one Tab stop (arrows move between them), as Tasks' filter
 * chips and service are; Up and Down choose in the service.
 */
function FilterChecks(props: Pick<GalleryFiltersBarProps, 'filters' | 'onChange'>) {
  const { filters, onChange } = props;
  return (
    <Toolbar className="gallery-filters__checks" label={t('gallery.filters.label')}>
      <FilterCheck
        label={t('gallery.favourite.label')}
        checked={filters.favouriteOnly}
        onChange={(favouriteOnly) => onChange({ favouriteOnly })}
      />
      <FilterCheck
        label={t('gallery.credentials.label')}
        checked={filters.credentialsOnly}
        onChange={(credentialsOnly) => onChange({ credentialsOnly })}
      />
      <ServiceFilter
        className="gallery-filters__field"
        value={filters.provider}
        onChange={(provider) => onChange({ provider })}
      />
    </Toolbar>
  );
}

/** The model choice: every model, or one (the one chosen stays offered). */
function ModelFilter({
  filters,
  models,
  onChange,
}: Pick<GalleryFiltersBarProps, 'filters' | 'models' | 'onChange'>) {
  const modelOptions =
    filters.model && !models.includes(filters.model) ? [filters.model, ...models] : models;
  return (
    <SelectField
      className="gallery-filters__field"
      label={t('gallery.model.label')}
      value={filters.model}
      options={[
        { value: '', label: t('gallery.model.all') },
        ...modelOptions.map((model) => ({ value: model, label: model })),
      ]}
      onChange={(model) => onChange({ model })}
    />
  );
}

/** At least this many stars: any, or 1 to 5. */
function RatingFilter({ filters, onChange }: Pick<GalleryFiltersBarProps, 'filters' | 'onChange'>) {
  return (
    <SelectField
      className="gallery-filters__field"
      label={t('triage.filter.rating')}
      value={String(filters.rating)}
      options={[0, 1, 2, 3, 4, 5].map((stars) => ({
        value: String(stars),
        label: stars === 0 ? t('triage.filter.anyRating') : t('triage.filter.atLeast', { stars }),
      }))}
      onChange={(rating) => onChange({ rating: Number(rating) })}
    />
  );
}

/**
 * The prompt template its tasks were made from: any, or one of the library's (by name); shown
 * once the library has a template.
 */
function TemplateFilter({
  filters,
  onChange,
}: Pick<GalleryFiltersBarProps, 'filters' | 'onChange'>) {
  const templates = useLoaded(
    (state) => state.templates,
    (state) => state.templatesLoad,
  );
  // A library without templates has nothing to choose: no field, no Tab stop.
  if (templates.length === 0 && filters.template === '') return null;
  return (
    <SelectField
      className="gallery-filters__field"
      label={t('gallery.template.label')}
      value={filters.template}
      options={[
        { value: '', label: t('gallery.template.all') },
        ...templates.map((template) => ({ value: template.id, label: template.name })),
      ]}
      onChange={(template) => onChange({ template })}
    />
  );
}

/** How many of the filters behind the "Filters" button are in use (the search is in view). */
function foldedFilterCount(filters: GalleryFilters): number {
  const { favouriteOnly, credentialsOnly, provider, model, from, to, rating } = filters;
  const inUse = [
    favouriteOnly,
    credentialsOnly,
    provider !== '',
    model !== '',
    filters.template !== '',
    filters.compare !== '',
    from,
    to,
    rating > 0,
  ];
  return inUse.filter(Boolean).length;
}

/**
 * "Clear filters" hides itself once pressed: the focus goes to the first filter beside it (in the
 * bar, or in the panel, which then stays open), never to the page.
 */
function focusFirstFilter(clear: HTMLElement): void {
  clear.parentElement?.querySelector<HTMLElement>('input[type="checkbox"]')?.focus();
}

/** Every filter but the search: in the bar, or in the "Filters" panel of a folded header. */
function FilterControls({
  filters,
  models,
  onChange,
}: Pick<GalleryFiltersBarProps, 'filters' | 'models' | 'onChange'>) {
  const clearable = hasActiveFilters(filters);
  return (
    <>
      <FilterChecks filters={filters} onChange={onChange} />
      <ModelFilter filters={filters} models={models} onChange={onChange} />
      <RatingFilter filters={filters} onChange={onChange} />
      <TemplateFilter filters={filters} onChange={onChange} />
      <CompareFilter filters={filters} onChange={onChange} />
      <div className="gallery-filters__dates">
        <DateField
          field="gallery.from"
          label={t('gallery.from.label')}
          value={filters.from}
          onChange={(from) => onChange({ from })}
        />
        <DateField
          field="gallery.to"
          label={t('gallery.to.label')}
          value={filters.to}
          onChange={(to) => onChange({ to })}
        />
      </div>
      {/* Kept in place while there is nothing to clear (hidden, and no Tab stop), so the bar
          never reflows. */}
      <Button
        variant="ghost"
        size="small"
        className={clearable ? undefined : 'gallery-filters__clear--idle'}
        tabIndex={clearable ? undefined : -1}
        aria-hidden={clearable ? undefined : true}
        onClick={(event) => {
          onChange(EMPTY_GALLERY_FILTERS);
          focusFirstFilter(event.currentTarget);
        }}
      >
        {t('gallery.filters.clear')}
      </Button>
    </>
  );
}

/** The other filters behind one button, with how many are in use on it. */
function FoldedFilters(props: Pick<GalleryFiltersBarProps, 'filters' | 'models' | 'onChange'>) {
  const count = foldedFilterCount(props.filters);
  return (
    <HeaderPanel
      label={t('common.filters.button')}
      accessibleLabel={t('common.filters.inUse', { count })}
      badge={count}
      icon="filter"
      panelClassName="gallery-filters__panel"
    >
      <FilterControls {...props} />
    </HeaderPanel>
  );
}

/** The search field, applied once typing pauses, on Enter, or when the focus leaves it. */
function SearchField({
  applied,
  onChange,
  active,
}: {
  applied: string;
  onChange: (patch: Partial<GalleryFilters>) => void;
  active: boolean;
}) {
  const searchRef = useRef<HTMLInputElement>(null);
  useFocusRequest('search', searchRef, active);
  const apply = useCallback((search: string) => onChange({ search }), [onChange]);
  return (
    <SearchInput
      className="gallery-filters__search"
      label={t('gallery.search.label')}
      placeholder={t('gallery.search.placeholder')}
      applied={applied}
      onApply={apply}
      inputRef={searchRef}
    />
  );
}

/**
 * Search by prompt (debounced), favourites only, Content Credentials only, service, model, rating,
 * template, compare group, dates.
 * With `folded` (a small window, lib/use-header-fold.ts), all but the search sit behind a
 * "Filters" button.
 */
export function GalleryFiltersBar({
  filters,
  models,
  onChange,
  active = true,
  folded = false,
}: GalleryFiltersBarProps) {
  const controls = { filters, models, onChange };
  return (
    <form
      className={folded ? 'gallery-filters gallery-filters--folded' : 'gallery-filters'}
      role="search"
      aria-label={t('gallery.filters.label')}
      // The field applies its search on Enter itself.
      onSubmit={(event) => event.preventDefault()}
    >
      <SearchField applied={filters.search} onChange={onChange} active={active} />
      {folded ? <FoldedFilters {...controls} /> : <FilterControls {...controls} />}
    </form>
  );
}
