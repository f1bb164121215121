/**
 * What an export, an import or an opened library left out, as a list under a heading that opens
 * it: each path by the rule for shown values (it was named by whoever made the folder or the
 * archive: a control, a bidi override or a new line cannot steer the sentence, a long name
 * wraps), and its reason in the window's language where main sent it as a sentence. Main sends
 * the first few hundred and the count of all.
 */
import type { ReactNode } from 'react';
import type { ExportSummaryView } from '../../../shared/ipc/archive-contract';
import { shownValue } from '../../../shared/text/shown-value';
import { errorText, t } from '../../i18n';

export function LeftOutList({
  items,
  total,
  heading,
  children,
}: {
  items: ExportSummaryView['skipped'];
  total: number;
  heading: string;
  /** Said once under the list. */
  children?: ReactNode;
}) {
  if (total === 0) return null;
  return (
    <details className="library-refusals">
      <summary>{heading}</summary>
      <ul>
        {items.map((item) => (
          <li key={item.path}>
            <span className="mono">{shownValue(item.path)}</span>{' '}
            {errorText({ message: item.reason, sentence: item.reasonSentence })}
          </li>
        ))}
      </ul>
      {total > items.length ? (
        <p>{t('settings.archive.refusedMore', { count: total - items.length })}</p>
      ) : null}
      {children}
    </details>
  );
}
