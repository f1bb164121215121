/**
 * The Costs screen's list: each task of the period with its prompt and a thumbnail (so tasks can
 * be told apart), its service, model and cost. A task the history still lists opens in Tasks
 * with its details; one removed from the history keeps its prompt and cost here (what was spent
 * stays spent) and says it was removed, opening nothing. A request the service never accepted
 * (refused, or not reached: no task id came back) is not a task of the ledger once refused, so
 * main never lists it here (core/history/ledger-accepted-schema.ts): no row says "removed" of a
 * step the user never took. The newest page comes first; "Show more" adds the next one and takes
 * the focus to the first task it added.
 */
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/button';
import type { CostLedger, CostLedgerEntry } from '../../../shared/ipc/cost-contract';
import { Icon } from '../../components/icon';
import { formatDateTime, isoDate, t } from '../../i18n';
import { IsolatedName } from '../../components/isolated-name';
import { imageUrl } from '../../lib/api';
import { costLine } from '../../lib/cost-text';
import { ledgerServiceLabel } from '../../lib/service-label';
import { useAppStore } from '../../store/app-store';

function Thumbnail({ entry }: { entry: CostLedgerEntry }) {
  return (
    <span className="costs-task__thumb" aria-hidden="true">
      {entry.thumbnail ? (
        <img
          src={imageUrl(entry.thumbnail)}
          alt=""
          loading="lazy"
          decoding="async"
          draggable={false}
        />
      ) : (
        <Icon name={entry.inHistory ? 'image' : 'trash'} />
      )}
    </span>
  );
}

/** The task as the list names it: its prompt, a button that opens it while it can be opened. */
function TaskCell({ entry, onGone }: { entry: CostLedgerEntry; onGone: () => void }) {
  const open = useAppStore((state) => state.costsOpenTask);
  const prompt = entry.prompt.trim() || t('costs.list.noPrompt');
  if (!entry.inHistory) {
    return (
      <div className="costs-task">
        <Thumbnail entry={entry} />
        <span className="costs-task__text">
          <span className="costs-task__prompt" title={entry.prompt}>
            {prompt}
          </span>
          <span className="muted">{t('costs.list.removed')}</span>
        </span>
      </div>
    );
  }
  return (
    <button
      type="button"
      className="plain-button costs-task costs-task--open"
      title={t('costs.list.openHint')}
      onClick={() => void open(entry.localId).then((opened) => opened || onGone())}
    >
      <Thumbnail entry={entry} />
      <span className="costs-task__text">
        <span className="costs-task__prompt">{prompt}</span>
      </span>
    </button>
  );
}

/** "Show more" while the ledger has older tasks: adds a page, then focuses its first row. */
function ShowMore({ ledger, onAdded }: { ledger: CostLedger; onAdded: (from: number) => void }) {
  const loadMore = useAppStore((state) => state.costsLoadMore);
  const [loading, setLoading] = useState(false);
  if (ledger.next === null) return null;
  const more = async () => {
    const shown = ledger.entries.length;
    setLoading(true);
    try {
      await loadMore();
    } finally {
      setLoading(false);
    }
    onAdded(shown);
  };
  return (
    <div className="costs-more">
      <Button onClick={() => void more()} disabled={loading} aria-busy={loading}>
        {loading ? t('costs.list.loadingMore') : t('costs.list.showMore')}
      </Button>
    </div>
  );
}

/** Focuses the row at the index given once it is drawn (the first one "Show more" added). */
function useFocusRow(rowCount: number) {
  const body = useRef<HTMLTableSectionElement>(null);
  const [row, setRow] = useState<number | null>(null);
  useEffect(() => {
    if (row === null || row >= rowCount) return;
    body.current?.rows[row]?.focus();
    setRow(null);
  }, [row, rowCount]);
  return { body, focusRow: setRow };
}

export function CostEntries({ ledger }: { ledger: CostLedger }) {
  const [gone, setGone] = useState(false);
  const reload = useAppStore((state) => state.costsLoad);
  const { body, focusRow } = useFocusRow(ledger.entries.length);
  // Removed since the list was read: say so, and read the list again (it now says removed).
  const onGone = () => {
    setGone(true);
    void reload();
  };
  return (
    <section className="costs-section" aria-labelledby="costs-list-title">
      <h2 id="costs-list-title">{t('costs.list.title')}</h2>
      {ledger.total > ledger.entries.length ? (
        <p className="muted">
          {t('costs.list.more', { shown: ledger.entries.length, total: ledger.total })}
        </p>
      ) : null}
      <p role="status" className="muted costs-saved">
        {gone ? t('costs.list.gone') : ''}
      </p>
      <div className="costs-table-wrap">
        <table className="costs-table">
          <thead>
            <tr>
              <th scope="col">{t('costs.list.created')}</th>
              <th scope="col">{t('costs.list.task')}</th>
              <th scope="col">{t('costs.list.service')}</th>
              <th scope="col">{t('costs.list.model')}</th>
              <th scope="col">{t('costs.list.cost')}</th>
            </tr>
          </thead>
          <tbody ref={body}>
            {ledger.entries.map((entry) => (
              <tr key={entry.localId} tabIndex={-1}>
                <td className="costs-table__when">
                  <time dateTime={isoDate(entry.createdAt)}>{formatDateTime(entry.createdAt)}</time>
                </td>
                <td className="costs-table__task">
                  <TaskCell entry={entry} onGone={onGone} />
                </td>
                <td>{ledgerServiceLabel(entry)}</td>
                <td className="costs-table__model">
                  <IsolatedName name={entry.model ?? undefined} fallback="—" />
                </td>
                <td>{costLine(entry.cost)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ShowMore ledger={ledger} onAdded={focusRow} />
    </section>
  );
}
