/**
 * A smart board's menu in the sidebar (a right-click, Shift+F10, the Menu key on its entry):
 * "Rename…" and "Delete smart board…", with their dialogs. A delete asks first and says that only
 * the saved filter goes; the images it shows stay. Each dialog gives the focus back to the entry.
 * The dialog open is the store's (smart-boards-ui.tsx's `useSmartDialog`): a new language keeps it.
 */
import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../components/dialog';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { SidebarMenu } from './sidebar-menu';
import type { TreeMenuRequest } from './sidebar-tree';
import { SmartNameDialog, useSmartDialog } from './smart-boards-ui';

const store = useAppStore.getState;

/** The menu's opener for the smart boards' tree (`nameOf` an entry's id), and what it shows. */
export function useSmartBoardMenu(nameOf: (id: string) => string | undefined): {
  readonly onMenu: (request: TreeMenuRequest) => void;
  readonly shown: ReactNode;
} {
  const [menuAt, setMenuAt] = useState<(TreeMenuRequest & { name: string }) | null>(null);
  const [dialog, setDialog] = useSmartDialog();
  const onMenu = (request: TreeMenuRequest): void => {
    const name = nameOf(request.id);
    if (name !== undefined) setMenuAt({ ...request, name });
  };
  const close = () => setDialog(null);
  const shown = (
    <>
      {menuAt ? (
        <SidebarMenu
          label={t('triage.sidebar.menu', { name: menuAt.label })}
          at={menuAt}
          entries={[
            {
              id: 'rename',
              label: t('triage.boards.rename'),
              run: () => setDialog({ kind: 'rename', name: menuAt.name }),
            },
            {
              id: 'delete',
              label: t('triage.smart.delete'),
              run: () => setDialog({ kind: 'delete', name: menuAt.name }),
            },
          ]}
          onClose={() => setMenuAt(null)}
        />
      ) : null}
      {dialog?.kind === 'rename' ? (
        <SmartNameDialog
          title={t('triage.boards.renameTitle', { board: dialog.name })}
          confirm={t('triage.boards.renameConfirm')}
          initial={dialog.name}
          submit={(name) => store().triageRenameSmart(dialog.name, name)}
          onClose={close}
        />
      ) : null}
      {dialog?.kind === 'delete' ? (
        <ConfirmDialog
          title={t('triage.smart.deleteTitle', { name: dialog.name })}
          body={t('triage.smart.deleteBody')}
          confirmLabel={t('triage.smart.deleteConfirm')}
          danger
          onCancel={close}
          onConfirm={() => {
            close();
            void store().triageDeleteSmart(dialog.name);
          }}
        />
      ) : null}
    </>
  );
  return { onMenu, shown };
}
