/**
 * What Settings › Costs' prices and caps have in common: the entries set so far, each a line and
 * its Remove button, and the form that adds one (its fields, then the button that sets it).
 */
import type { ReactNode } from 'react';
import { Button } from '../../components/button';
import { t } from '../../i18n';

export function CostEntryList<Entry>(props: {
  entries: readonly Entry[];
  /** Said instead of the list when there is no entry. */
  empty: string;
  keyOf: (entry: Entry) => string;
  line: (entry: Entry) => string;
  onRemove: (entry: Entry) => void;
}) {
  if (props.entries.length === 0) return <p className="muted">{props.empty}</p>;
  return (
    <ul className="cost-settings-list">
      {props.entries.map((entry) => (
        <li key={props.keyOf(entry)}>
          <span>{props.line(entry)}</span>
          <Button size="small" onClick={() => props.onRemove(entry)}>
            {t('costs.settings.remove')}
          </Button>
        </li>
      ))}
    </ul>
  );
}

/** The form that adds an entry: named `label`, its fields, and the `action` button. */
export function CostEntryForm(props: {
  label: string;
  action: string;
  onSubmit: () => Promise<void>;
  children: ReactNode;
}) {
  return (
    <form
      className="settings-grid"
      aria-label={props.label}
      onSubmit={(event) => (event.preventDefault(), void props.onSubmit())}
    >
      {props.children}
      <div className="settings-actions">
        <Button type="submit">{props.action}</Button>
      </div>
    </form>
  );
}
