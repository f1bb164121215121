import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { Icon } from '../../components/icon';
import { SelectField } from '../../components/select-field';
import { ServiceFilter } from '../../components/service-filter';
import { t } from '../../i18n';
import { useRovingFocus } from '../../lib/roving-focus';
import { useFocusRequest } from '../shell/use-focus-request';
import { DateField } from './date-field';
import {
  EMPTY_GALLERY_FILTERS,
  hasActiveFilters,
  type GalleryFilters,
} from '../../store/gallery-list-model';

/** How long typing pauses before the search runs. */
const SEARCH_DEBOUNCE_MS = 250;

export interface GalleryFiltersBarProps {
  readonly filters: GalleryFilters;
  readonly models: readonly string[];
  readonly onChange: (patch: Partial<GalleryFilters>) => void;
  /** False while another screen is shown (the search then ignores focus requests). */
  readonly active?: boolean;
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
  const checks = useRef<HTMLDivElement>(null);
  const onCheckKeys = useRovingFocus(checks);
  return (
    <div
      ref={checks}
      className="gallery-filters__checks"
      role="toolbar"
      aria-label={t('gallery.filters.label')}
      onKeyDown={onCheckKeys}
    >
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
    </div>
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

/**
 * Search by prompt (debounced), favourites only, Content Credentials only, service, model, dates.
 */
export function GalleryFiltersBar({
  filters,
  models,
  onChange,
  active = true,
}: GalleryFiltersBarProps) {
  const id = useId();
  const searchRef = useRef<HTMLInputElement>(null);
  const clearable = hasActiveFilters(filters);
  const [text, setText] = useState(filters.search);
  useFocusRequest('search', searchRef, active);

  // "Clear filters" (or any outside change) resets the field.
  useEffect(() => setText(filters.search), [filters.search]);
  useEffect(() => {
    if (text === filters.search) return;
    const timer = setTimeout(() => onChange({ search: text }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, filters.search, onChange]);

  return (
    <form
      className="gallery-filters"
      role="search"
      aria-label={t('gallery.filters.label')}
      onSubmit={(event) => {
        event.preventDefault();
        onChange({ search: text });
      }}
    >
      <div className="gallery-filters__search">
        <label htmlFor={`${id}-search`} className="visually-hidden">
          {t('gallery.search.label')}
        </label>
        <Icon name="search" className="gallery-filters__search-icon" />
        <input
          ref={searchRef}
          id={`${id}-search`}
          type="search"
          className="input"
          placeholder={t('gallery.search.placeholder')}
          value={text}
          onChange={(event) => setText(event.target.value)}
          maxLength={500}
        />
      </div>
      <FilterChecks filters={filters} onChange={onChange} />
      <ModelFilter filters={filters} models={models} onChange={onChange} />
      <div className="gallery-filters__dates">
        <DateField
          label={t('gallery.from.label')}
          value={filters.from}
          onChange={(from) => onChange({ from })}
        />
        <DateField
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
        onClick={() => onChange(EMPTY_GALLERY_FILTERS)}
      >
        {t('gallery.filters.clear')}
      </Button>
    </form>
  );
}
