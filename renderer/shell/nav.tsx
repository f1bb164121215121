/**
 * The sidebar: the app's four screens, Settings last, each with its key (Ctrl+1 to 4;
 * screen-keys.ts) in its tooltip and aria-keyshortcuts. Labels collapse to icons (with tooltips)
 * when narrow. The list is one Tab stop, the current screen (the arrows move between screens), so
 * Tab from the sidebar goes straight to the screen.
 */
import type { KeyboardEvent } from 'react';
import { Icon, type IconName } from '../components/icon';
import { t, type MessageKey } from '../i18n';
import { logicalArrow } from '../lib/direction';
import { useAppStore } from '../store/app-store';
import { selectTaskItems } from '../store/record-selectors';
import type { View } from '../store/ui-slice';
import { isMacPlatform } from '../lib/platform';
import { screenShortcut } from './screen-keys';

const NEXT_KEYS = new Set(['ArrowDown', 'ArrowRight']);
const PREVIOUS_KEYS = new Set(['ArrowUp', 'ArrowLeft']);

/** Up and Down (Left and Right too), Home and End move the focus between the screens' buttons. */
function onNavKeys(event: KeyboardEvent<HTMLUListElement>): void {
  const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button')];
  const at = buttons.findIndex((button) => button === event.target);
  if (at < 0) return;
  const key = logicalArrow(event.key);
  const next = NEXT_KEYS.has(key)
    ? (at + 1) % buttons.length
    : PREVIOUS_KEYS.has(key)
      ? (at - 1 + buttons.length) % buttons.length
      : key === 'Home'
        ? 0
        : key === 'End'
          ? buttons.length - 1
          : null;
  if (next === null) return;
  event.preventDefault();
  buttons[next]?.focus();
}

const ITEMS: ReadonlyArray<{ view: View; icon: IconName; label: MessageKey }> = [
  { view: 'tasks', icon: 'tasks', label: 'nav.tasks' },
  { view: 'gallery', icon: 'gallery', label: 'nav.gallery' },
  { view: 'costs', icon: 'costs', label: 'nav.costs' },
  // Last, where desktop apps keep it; each screen's place in the list is its key's digit (Ctrl+4).
  { view: 'settings', icon: 'settings', label: 'nav.settings' },
];

export function Nav() {
  const view = useAppStore((state) => state.view);
  const setView = useAppStore((state) => state.setView);
  const active = useAppStore((state) => countActive(selectTaskItems(state)));
  const mac = useAppStore((state) => isMacPlatform(state.appInfo?.platform));
  return (
    <nav className="nav" aria-label={t('nav.label')}>
      <div className="nav__brand" aria-hidden="true">
        <Icon name="image" />
        <span className="nav__text">{t('app.name')}</span>
      </div>
      <ul className="nav__list" onKeyDown={onNavKeys}>
        {ITEMS.map((item) => {
          const shortcut = screenShortcut(item.view, mac);
          return (
            <li key={item.view}>
              <button
                type="button"
                className="nav__item"
                aria-current={view === item.view ? 'page' : undefined}
                tabIndex={view === item.view ? 0 : -1}
                aria-keyshortcuts={shortcut.aria}
                title={t('nav.withShortcut', { label: t(item.label), keys: shortcut.text })}
                onClick={() => setView(item.view)}
              >
                <Icon name={item.icon} />
                <span className="nav__text">{t(item.label)}</span>
                {item.view === 'tasks' && active > 0 ? (
                  <span
                    className="count-badge nav__badge"
                    title={t('nav.activeTasks', { count: active })}
                  >
                    <span aria-hidden="true">{active}</span>
                    <span className="visually-hidden">
                      {t('nav.activeTasks', { count: active })}
                    </span>
                  </span>
                ) : null}
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function countActive(
  items: readonly { record: { status: string; hold: string | null } }[],
): number {
  let count = 0;
  for (const { record } of items) {
    if ((record.status === 'processing' && !record.hold) || record.status === 'submitting')
      count += 1;
  }
  return count;
}
