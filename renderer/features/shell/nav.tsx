/**
 * The sidebar: the app's three screens, each with its key (Ctrl+1, 2, 3; screen-keys.ts) in its
 * tooltip and aria-keyshortcuts. Labels collapse to icons (with tooltips) when narrow.
 */
import { Icon, type IconName } from '../../components/icon';
import { t, type MessageKey } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import type { View } from '../../store/ui-slice';
import { isMacPlatform, screenShortcut } from './screen-keys';

const ITEMS: ReadonlyArray<{ view: View; icon: IconName; label: MessageKey }> = [
  { view: 'tasks', icon: 'tasks', label: 'nav.tasks' },
  { view: 'gallery', icon: 'gallery', label: 'nav.gallery' },
  { view: 'settings', icon: 'settings', label: 'nav.settings' },
];

export function Nav() {
  const view = useAppStore((state) => state.view);
  const setView = useAppStore((state) => state.setView);
  const active = useAppStore((state) => countActive(state.tasksItems));
  const mac = useAppStore((state) => isMacPlatform(state.appInfo?.platform));
  return (
    <nav className="nav" aria-label={t('nav.label')}>
      <div className="nav__brand" aria-hidden="true">
        <Icon name="image" />
        <span className="nav__text">{t('app.name')}</span>
      </div>
      <ul className="nav__list">
        {ITEMS.map((item) => {
          const shortcut = screenShortcut(item.view, mac);
          return (
            <li key={item.view}>
              <button
                type="button"
                className="nav__item"
                aria-current={view === item.view ? 'page' : undefined}
                aria-keyshortcuts={shortcut.aria}
                title={t('nav.withShortcut', { label: t(item.label), keys: shortcut.text })}
                onClick={() => setView(item.view)}
              >
                <Icon name={item.icon} />
                <span className="nav__text">{t(item.label)}</span>
                {item.view === 'tasks' && active > 0 ? (
                  <span className="nav__badge" title={t('nav.activeTasks', { count: active })}>
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
