/** The Tasks screen: compose at the top, then the searchable, filterable history. */
import { useState, type ReactNode } from 'react';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { ErrorMessage } from '../../components/error-message';
import { Spinner } from '../../components/spinner';
import { ViewErrorBoundary } from '../../components/error-boundary';
import { t } from '../../i18n';
import { hasSelection } from '../../lib/selection';
import { useAppStore } from '../../store/app-store';
import { isFiltered } from '../../store/task-list-model';
import { RemoveQuestion } from './remove-question';
import { TaskDetails } from './task-details';
import { TaskList, type TaskListProps } from './task-list';
import { SelectionBar } from './selection-bar';
import { TaskToolbar } from './task-toolbar';
import { TrackDialog, useTrackOpen } from './track-dialog';
import './tasks.css';

/** No task to show: none matches the filters, or none yet (the way to the prompt). */
function NoTasks() {
  const filtered = useAppStore((state) => isFiltered(state.tasksFilter));
  const clear = useAppStore((state) => state.tasksClearFilters);
  const requestFocus = useAppStore((state) => state.requestFocus);
  return filtered ? (
    <EmptyState
      icon="search"
      title={t('tasks.noMatch.title')}
      body={t('tasks.noMatch.body')}
      action={<Button onClick={clear}>{t('tasks.filter.clear')}</Button>}
    />
  ) : (
    <EmptyState
      icon="tasks"
      title={t('tasks.empty.title')}
      body={t('tasks.empty.body')}
      action={<Button onClick={() => requestFocus('prompt')}>{t('tasks.empty.action')}</Button>}
    />
  );
}

function ListArea({ onRemove, onRemoveSelected }: TaskListProps) {
  const loaded = useAppStore((state) => state.tasksLoaded);
  const total = useAppStore((state) => state.tasksTotal);
  const error = useAppStore((state) => state.tasksError);
  // A failed first page is tried again by reloading; a failed next page by scrolling on.
  const firstPageFailed = useAppStore((state) => state.tasksStatus === 'error');
  const reload = useAppStore((state) => state.tasksReload);
  const dismissError = useAppStore((state) => state.tasksDismissError);
  if (error && total === 0) {
    return (
      <div className="task-list__message">
        <ErrorMessage
          message={error.message}
          detail={error.detail}
          actions={<Button onClick={() => void reload()}>{t('common.tryAgain')}</Button>}
        />
      </div>
    );
  }
  if (!loaded) {
    return (
      <div className="task-list__message">
        <Spinner size="large" label={t('tasks.loading')} />
      </div>
    );
  }
  if (total === 0) return <NoTasks />;
  return (
    <>
      {error ? (
        <div className="task-list__message">
          <ErrorMessage
            message={error.message}
            detail={error.detail}
            actions={
              <Button onClick={firstPageFailed ? () => void reload() : dismissError}>
                {t('common.tryAgain')}
              </Button>
            }
          />
        </div>
      ) : null}
      <TaskList onRemove={onRemove} onRemoveSelected={onRemoveSelected} />
    </>
  );
}

export interface TasksViewProps {
  readonly active?: boolean;
  /** The compose form above the history (features/compose), put here by the window. */
  readonly compose: ReactNode;
  /** The image viewer over the screen (the gallery's, for a task's images), put here by the window. */
  readonly viewer: ReactNode;
}

export function TasksView({ active = true, compose, viewer }: TasksViewProps) {
  const tracking = useTrackOpen();
  const [removing, setRemoving] = useState<TaskRecord | null>(null);
  /** How many selected tasks the confirmation asks to remove (0: not asking). */
  const [removingSelected, setRemovingSelected] = useState(0);
  // While anything is selected (the selection bar is shown), a class says so to the history's
  // styles. Not `:has()`: a `:has()` anchored on an element around the feed is looked at again
  // for every row the feed adds or drops as it scrolls, and Chromium then restyled the whole
  // history (~800 elements) in every frame that brought a row (tests: feed-style-anchors).
  const selecting = useAppStore((state) => hasSelection(state.tasksSelection));
  return (
    <div className="tasks-view">
      <div className="tasks-view__compose">{compose}</div>
      <section
        className={`tasks-view__history${selecting ? ' tasks-view__history--selecting' : ''}`}
        aria-label={t('tasks.title')}
      >
        <TaskToolbar active={active} onTrack={tracking.show} />
        <ListArea onRemove={setRemoving} onRemoveSelected={setRemovingSelected} />
        <SelectionBar onRemove={setRemovingSelected} />
      </section>
      <ViewErrorBoundary>
        <TaskDetails onRemove={setRemoving} />
      </ViewErrorBoundary>
      {viewer}
      {tracking.open ? <TrackDialog onClose={tracking.close} /> : null}
      <RemoveQuestion
        task={removing}
        selected={removingSelected}
        onClose={() => {
          setRemoving(null);
          setRemovingSelected(0);
        }}
      />
    </div>
  );
}
