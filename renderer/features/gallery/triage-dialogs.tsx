/**
 * The dialogs the triage keys open (triage-slice.ts's `triageDialog`): Ctrl/Cmd+B's chooser of the
 * target board, by typing (board-picker.tsx), where Enter sets the board B adds to and "None"
 * clears it; and T's tag editor (tag-editor.tsx). Each gives the focus back where it was.
 */
import { useEffect } from 'react';
import { Dialog } from '../../components/dialog';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { BoardPicker } from './board-picker';
import { boardNodes } from './board-tree';
import { TagEditor } from './tag-editor';

const store = useAppStore.getState;

/** The library's boards and tags, read once when something needs them. */
export function useTriageLibrary() {
  const library = useAppStore((s) => s.triageLibrary);
  useEffect(() => {
    if (store().triageLibrary === null) void store().triageLoadLibrary();
  }, []);
  return library;
}

function TargetChooser({ onClose }: { onClose: () => void }) {
  const library = useTriageLibrary();
  const target = useAppStore((s) => s.triageTarget);
  const options = [
    { id: '', label: t('triage.chooser.none') },
    ...boardNodes(library?.boards ?? []).map((board) => ({ id: board.path, label: board.path })),
  ];
  return (
    <Dialog title={t('triage.chooser.title')} onClose={onClose}>
      <p className="muted">{t('triage.chooser.help')}</p>
      <BoardPicker
        label={t('triage.chooser.filter')}
        listLabel={t('triage.chooser.list')}
        options={options}
        initial={target ?? ''}
        onPick={(path) => {
          const state = store();
          state.triageSetTarget(path === '' ? null : path);
          state.confirm(() =>
            path === '' ? t('triage.targetNone') : t('triage.target', { board: path }),
          );
          onClose();
        }}
      />
    </Dialog>
  );
}

export function TriageDialogs() {
  const dialog = useAppStore((s) => s.triageDialog);
  const closeDialog = useAppStore((s) => s.triageCloseDialog);
  const drop = useAppStore((s) => s.formDraftDrop);
  // What is typed is kept over a new language (form-drafts.ts), not over a close.
  const close = () => {
    drop('triage.tagText');
    drop('boards.picker');
    closeDialog();
  };
  if (dialog === null) return null;
  if (dialog.kind === 'board') return <TargetChooser onClose={close} />;
  return <TagEditor refs={dialog.refs} items={dialog.items} onClose={close} />;
}
