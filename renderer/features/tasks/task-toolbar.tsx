/**
 * Search (debounced), status chips, favourites, the service, the count, "Select all" and "Track a
 * task id". The chips, the service choice and the buttons beside them are one toolbar, one tab
 * stop (arrows move inside): the way from the prompt to the first task is a few Tabs, not one per
 * chip.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { Icon } from '../../components/icon';
import { ServiceFilter } from '../../components/service-filter';
import { t, type MessageKey } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { STATUS_GROUP_NAMES, isFiltered, type StatusGroup } from '../../store/task-list-model';
import { useRovingFocus } from '../../lib/roving-focus';
import { useFocusRequest } from '../shell/use-focus-request';

/** How long typing must pause before the search runs. */
export const SEARCH_DEBOUNCE_MS = 250;

const GROUP_LABELS: Record<StatusGroup, MessageKey> = {
  active: 'tasks.filter.active',
  completed: 'tasks.filter.completed',
  failed: 'tasks.filter.failed',
  notSent: 'tasks.filter.notSent',
};

function SearchField({ active }: { active: boolean }) {
  const id = useId();
  const applied = useAppStore((state) => state.tasksFilter.search);
  const setSearch = useAppStore((state) => state.tasksSetSearch);
  const [text, setText] = useState(applied);
  const input = useRef<HTMLInputElement>(null);
  useFocusRequest('search', input, active);
  // "Clear filters" empties the applied search: follow it.
  useEffect(() => setText((current) => (applied === '' ? '' : current)), [applied]);
  useEffect(() => {
    if (text === applied) return undefined;
    const timer = setTimeout(() => setSearch(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, applied, setSearch]);
  return (
    <div className="task-toolbar__search">
      <label className="visually-hidden" htmlFor={id}>
        {t('tasks.search.label')}
      </label>
      <Icon name="search" className="task-toolbar__search-icon" />
      <input
        id={id}
        ref={input}
        className="input"
        type="search"
        value={text}
        placeholder={t('tasks.search.placeholder')}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') setSearch(text);
        }}
      />
    </div>
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

export function TaskToolbar({ active, onTrack }: { active: boolean; onTrack: () => void }) {
  const filter = useAppStore((state) => state.tasksFilter);
  const total = useAppStore((state) => state.tasksTotal);
  const counted = useAppStore((state) => state.tasksCounted);
  const setFavourite = useAppStore((state) => state.tasksSetFavouriteOnly);
  const clear = useAppStore((state) => state.tasksClearFilters);
  const selectAll = useAppStore((state) => state.tasksSelectAll);
  const filterBar = useRef<HTMLDivElement>(null);
  const onFilterKeys = useRovingFocus(filterBar);
  return (
    <div className="task-toolbar">
      <div className="task-toolbar__row">
        <h1 className="task-toolbar__title">{t('tasks.title')}</h1>
        <SearchField active={active} />
        <Button icon="link" onClick={onTrack}>
          {t('tasks.track.open')}
        </Button>
      </div>
      <div
        ref={filterBar}
        className="task-toolbar__row"
        role="toolbar"
        aria-label={t('tasks.filter.label')}
        onKeyDown={onFilterKeys}
      >
        <GroupChips />
        <button
          type="button"
          className="chip"
          aria-pressed={filter.favourite}
          onClick={() => setFavourite(!filter.favourite)}
        >
          <Icon name="star" filled={filter.favourite} />
          {t('tasks.filter.favourite')}
        </button>
        <TaskServiceFilter />
        {isFiltered(filter) ? (
          <Button variant="ghost" size="small" onClick={clear}>
            {t('tasks.filter.clear')}
          </Button>
        ) : null}
        <span className="task-toolbar__count muted" aria-live="polite">
          {counted ? t('tasks.count', { count: total }) : ''}
        </span>
        {total > 0 ? (
          <Button variant="ghost" size="small" aria-keyshortcuts="Control+A" onClick={selectAll}>
            {t('tasks.selection.selectAll')}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
