/**
 * Search (debounced), status chips, favourites, the service, the count, "Select all" and "Track a
 * task id". The chips, the service choice and the buttons beside them are one toolbar, one tab
 * stop (arrows move inside): the way from the prompt to the first task is a few Tabs, not one per
 * chip. In a small window the chips fold behind a "Filters" button.
 */
import { useRef, type ReactNode } from 'react';
import { Button } from '../../components/button';
import { HeaderPanel } from '../../components/header-panel';
import { Icon } from '../../components/icon';
import { IconButton } from '../../components/icon-button';
import { SearchInput } from '../../components/search-input';
import { ServiceFilter } from '../../components/service-filter';
import { Toolbar } from '../../components/toolbar';
import { t, type MessageKey } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import {
  STATUS_GROUP_NAMES,
  isFiltered,
  type StatusGroup,
  type TaskFilter,
} from '../../store/task-list-model';
import { useHeaderFold } from '../../lib/use-header-fold';
import { useFocusRequest } from '../../store/use-focus-request';

const GROUP_LABELS: Record<StatusGroup, MessageKey> = {
  active: 'tasks.filter.active',
  completed: 'tasks.filter.completed',
  failed: 'tasks.filter.failed',
  notSent: 'tasks.filter.notSent',
};

function SearchField({ active }: { active: boolean }) {
  const applied = useAppStore((state) => state.tasksFilter.search);
  const setSearch = useAppStore((state) => state.tasksSetSearch);
  const input = useRef<HTMLInputElement>(null);
  useFocusRequest('search', input, active);
  return (
    <SearchInput
      className="task-toolbar__search"
      label={t('tasks.search.label')}
      placeholder={t('tasks.search.placeholder')}
      applied={applied}
      onApply={setSearch}
      inputRef={input}
    />
  );
}

/** One pressed-or-not chip per status group. */
function GroupChips() {
  const groups = useAppStore((state) => state.tasksFilter.groups);
  const toggle = useAppStore((state) => state.tasksToggleGroup);
  return STATUS_GROUP_NAMES.map((group) => (
    <button
      key={group}
      type="button"
      className="chip"
      aria-pressed={groups.includes(group)}
      onClick={() => toggle(group)}
    >
      {t(GROUP_LABELS[group])}
    </button>
  ));
}

/** The service filter, in the chips' toolbar: Left and Right pass it, Up and Down choose. */
function TaskServiceFilter() {
  const provider = useAppStore((state) => state.tasksFilter.provider);
  const setProvider = useAppStore((state) => state.tasksSetProvider);
  return (
    <ServiceFilter className="task-toolbar__service" value={provider} onChange={setProvider} />
  );
}

/** How many filters are in use besides the search: each status chip on, favourites, the service. */
function filtersInUse(filter: TaskFilter): number {
  return filter.groups.length + Number(filter.favourite) + Number(filter.provider !== '');
}

/**
 * The status chips, favourites and the service (and "Clear filters" while any is on): one
 * toolbar, one tab stop, the arrows moving inside. `children` follow them (the count and "Select
 * all", when they share the row).
 */
function FilterChips({ children }: { children?: ReactNode }) {
  const filter = useAppStore((state) => state.tasksFilter);
  const setFavourite = useAppStore((state) => state.tasksSetFavouriteOnly);
  const clear = useAppStore((state) => state.tasksClearFilters);
  const filterBar = useRef<HTMLDivElement>(null);
  return (
    <Toolbar className="task-toolbar__row" label={t('tasks.filter.label')} toolbarRef={filterBar}>
      <GroupChips />
      <button
        type="button"
        className="chip"
        aria-pressed={filter.favourite}
        onClick={() => setFavourite(!filter.favourite)}
      >
        <Icon name="flag" filled={filter.favourite} />
        {t('tasks.filter.favourite')}
      </button>
      <TaskServiceFilter />
      {isFiltered(filter) ? (
        <Button
          variant="ghost"
          size="small"
          onClick={() => {
            clear();
            // The button goes with the filters: the focus to the first chip, not to the page.
            filterBar.current?.querySelector<HTMLElement>('.chip')?.focus();
          }}
        >
          {t('tasks.filter.clear')}
        </Button>
      ) : null}
      {children}
    </Toolbar>
  );
}

/** How many tasks the filters show, and "Select all" while there are any. */
function CountAndSelectAll() {
  const total = useAppStore((state) => state.tasksTotal);
  const counted = useAppStore((state) => state.tasksCounted);
  const selectAll = useAppStore((state) => state.tasksSelectAll);
  return (
    <>
      <span className="task-toolbar__count muted" aria-live="polite">
        {counted ? t('tasks.count', { count: total }) : ''}
      </span>
      {total > 0 ? (
        <Button variant="ghost" size="small" aria-keyshortcuts="Control+A" onClick={selectAll}>
          {t('tasks.selection.selectAll')}
        </Button>
      ) : null}
    </>
  );
}

/** The chips behind one "Filters" button, with how many are in use on it (a small window). */
function FoldedChips() {
  const count = useAppStore((state) => filtersInUse(state.tasksFilter));
  return (
    <HeaderPanel
      label={t('common.filters.button')}
      accessibleLabel={t('common.filters.inUse', { count })}
      badge={count}
      icon="filter"
    >
      <FilterChips />
    </HeaderPanel>
  );
}

/**
 * The title, the search and "Track a task id"; under them the filters, the count and "Select
 * all". In a small window (lib/use-header-fold.ts) the filters fold behind a "Filters" button,
 * "Track a task id" shows its icon only, and everything shares rows that wrap: every control stays
 * in the window, none scrolls sideways.
 */
export function TaskToolbar({ active, onTrack }: { active: boolean; onTrack: () => void }) {
  const folded = useHeaderFold();
  if (folded) {
    // "Track a task id" by its icon (its words are its name and tooltip): at 200 % zoom the
    // toolbar is then one row in English, and the history keeps that row's height.
    return (
      <div className="task-toolbar task-toolbar--folded">
        <h1 className="task-toolbar__title">{t('tasks.title')}</h1>
        <SearchField active={active} />
        <FoldedChips />
        <IconButton icon="link" label={t('tasks.track.open')} onClick={onTrack} />
        <CountAndSelectAll />
      </div>
    );
  }
  return (
    <div className="task-toolbar">
      <div className="task-toolbar__row">
        <h1 className="task-toolbar__title">{t('tasks.title')}</h1>
        <SearchField active={active} />
        <Button icon="link" onClick={onTrack}>
          {t('tasks.track.open')}
        </Button>
      </div>
      <FilterChips>
        <CountAndSelectAll />
      </FilterChips>
    </div>
  );
}
