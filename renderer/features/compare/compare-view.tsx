/**
 * The compare view: a compare group's cells side by side (at most six), over the window. Each
 * cell is one target's task, live from `tasks:updated`; the keys (compare-keys.ts) move between
 * cells and triage the focused one with the triage store's actions, so Undo and Redo take it
 * back; Ctrl/Cmd+Enter keeps the winner and rejects the rest as one step. 2-up shows the focused
 * cell and the next one together. "Cancel all" asks the services of the unfinished tasks.
 */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Button } from '../../components/button';
import { IconButton } from '../../components/icon-button';
import { t } from '../../i18n';
import { documentDirection } from '../../lib/direction';
import { trapTab, useFocusReturn, useKeptFocus } from '../../lib/focus-trap';
import { useAppStore } from '../../store/app-store';
import { savedRefs } from '../../store/compare-slice';
import { selectCompareItems } from '../../store/record-selectors';
import { galleryItemsOf } from '../../store/gallery-list-model';
import { CompareCell } from './compare-cell';
import { compareKeyAction, type CompareKeyAction } from './compare-keys';
import { CompareTwoUp } from './compare-two-up';
import './compare.css';

const store = useAppStore.getState;

/** Does what a key asked of the cell at `at`; answers the cell to focus next. */
function act(action: CompareKeyAction, at: number): number {
  const state = store();
  const record = selectCompareItems(state)[at]?.record;
  switch (action.kind) {
    case 'move':
      return action.to;
    case 'close':
      state.compareClose();
      return at;
    case 'redo':
      void state.triageRedo();
      return at;
  }
  if (!record) return at;
  const refs = savedRefs(record);
  // With the cell's images, so a key they all answer already takes it back (as in the grid).
  if (action.kind === 'change') {
    const items = galleryItemsOf(record).filter((item) => item.image.state === 'saved');
    void state.triageApply(refs, action.change, items);
  }
  if (action.kind === 'keepWinner') void state.compareKeepWinner(record.localId);
  if (action.kind === 'open') openInViewer(record.localId, refs[0]?.index);
  return at;
}

/** Enter: the image in the Tasks screen's viewer, when the task list has the task loaded. */
function openInViewer(localId: string, index: number | undefined): void {
  const state = store();
  if (index === undefined) return;
  if (!state.tasksIds.includes(localId)) return;
  state.compareClose();
  state.setView('tasks');
  state.tasksOpenViewer({ localId, index });
}

export function CompareView() {
  const group = useAppStore((state) => state.compareGroup);
  if (group === null) return null;
  return <OpenCompare key={group} />;
}

/** The focused cell and 2-up, the store's (CompareShown): a new language shows the same. */
function useShownCell() {
  const at = useAppStore((state) => state.compareShown.at);
  const twoUp = useAppStore((state) => state.compareShown.twoUp);
  const setAt = (cell: number) => store().compareSetShown({ at: cell });
  const setTwoUp = (on: boolean) => store().compareSetShown({ twoUp: on });
  return { at, setAt, twoUp, setTwoUp };
}

function OpenCompare() {
  const items = useAppStore(selectCompareItems);
  const loading = useAppStore((state) => state.compareLoading);
  const { at, setAt, twoUp, setTwoUp } = useShownCell();
  const cells = useRef<(HTMLDivElement | null)[]>([]);
  const view = useRef<HTMLDivElement>(null);
  useFocusReturn();
  useKeptFocus(view);
  const focused = Math.min(at, Math.max(0, items.length - 1));
  // The view itself until its cells are in (main still reading them, or none): the focus must not
  // stay on what the view covers (the viewer an edit was sent from), whose keys would act unseen.
  useEffect(() => {
    (cells.current[focused] ?? view.current)?.focus();
  }, [focused, items.length, twoUp]);
  const onKeyDown = (event: KeyboardEvent) => {
    const place = { at: focused, count: items.length, direction: documentDirection() };
    const action = compareKeyAction(event, place);
    // Tab past the cells goes on to the view's buttons, and from the last back to the first.
    if (action === null) return trapTab(event, view.current);
    event.preventDefault();
    event.stopPropagation();
    setAt(act(action, focused));
  };
  const a = items[focused]?.record;
  const b = items[(focused + 1) % Math.max(1, items.length)]?.record;
  return (
    <div
      ref={view}
      className="compare"
      role="dialog"
      aria-modal="true"
      aria-label={t('compare.title')}
      tabIndex={-1}
      onKeyDown={onKeyDown}
    >
      <CompareHeader twoUp={twoUp} onTwoUp={setTwoUp} cells={items.length} />
      {loading && items.length === 0 ? (
        <p className="compare__note">{t('compare.loading')}</p>
      ) : null}
      {!loading && items.length === 0 ? (
        <p className="compare__note">{t('compare.empty')}</p>
      ) : null}
      {twoUp && a && b ? <CompareTwoUp a={a} b={b} /> : null}
      <div className="compare__grid" role="grid" aria-label={t('compare.title')} hidden={twoUp}>
        <div role="row" className="compare__row">
          {items.map((item, n) => (
            <CompareCell
              key={item.record.localId}
              record={item.record}
              focused={n === focused}
              cellRef={(element) => {
                cells.current[n] = element;
              }}
              onFocus={() => setAt(n)}
            />
          ))}
        </div>
      </div>
    </div>
  );
}

function CompareHeader(props: { twoUp: boolean; onTwoUp: (on: boolean) => void; cells: number }) {
  const { twoUp, onTwoUp, cells } = props;
  return (
    <header className="compare__header">
      <h2 className="compare__title">{t('compare.title')}</h2>
      <p className="compare__keys">{t('compare.keys')}</p>
      <Button
        size="small"
        aria-pressed={twoUp}
        onClick={() => onTwoUp(!twoUp)}
        disabled={cells < 2}
      >
        {twoUp ? t('compare.grid') : t('compare.twoUp')}
      </Button>
      <Button size="small" onClick={() => void store().compareCancelAll()}>
        {t('compare.cancelAll')}
      </Button>
      <IconButton icon="close" label={t('compare.close')} onClick={() => store().compareClose()} />
    </header>
  );
}
