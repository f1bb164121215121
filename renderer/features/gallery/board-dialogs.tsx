/**
 * The boards sidebar's dialogs: a new board (its name, and the board it goes inside), a new name,
 * a new place (chosen from the boards), and the question before a delete, which says the images
 * stay. Main checks every name and move: its sentence shows in the dialog, which keeps what was
 * typed. Each closes with Escape and gives the focus back to where it was opened from.
 */
import { useId, useState } from 'react';
import { CancelAndAction, ConfirmDialog, Dialog } from '../../components/dialog';
import { SelectField } from '../../components/select-field';
import { TextField } from '../../components/text-field';
import { t } from '../../i18n';
import { problemOf, type Problem } from '../../lib/api';
import { useAppStore } from '../../store/app-store';
import { useFormDraft } from '../../store/use-form-draft';
import { BoardPicker } from './board-picker';
import { boardName } from './board-tree';

/** A dialog's request to main: busy while it runs, main's refusal kept to show. */
function useRequest(onDone: (answer: string) => void) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const run = async (request: () => Promise<string>): Promise<void> => {
    setBusy(true);
    setProblem(null);
    try {
      onDone(await request());
    } catch (error) {
      setProblem(problemOf(error));
      setBusy(false);
    }
  };
  return { busy, problem, run };
}

export interface NameDialogProps {
  /** Renames this board; absent: a new board. */
  readonly board?: string;
  /** A new board's place at first (a board's path, '' for the top). */
  readonly parent?: string;
  readonly boards: readonly string[];
  readonly onClose: () => void;
  /** The board's path after (the sidebar shows it). */
  readonly onDone: (path: string) => void;
}

/** "New board" and "Rename…": a name, and for a new board the board it goes inside. */
export function BoardNameDialog(props: NameDialogProps) {
  const { board, onClose } = props;
  const form = useId();
  const [name, setName] = useFormDraft('boards.name', board === undefined ? '' : boardName(board));
  const [parent, setParent] = useFormDraft('boards.parent', props.parent ?? '');
  const store = useAppStore.getState;
  const request = useRequest(props.onDone);
  const submit = () =>
    void request.run(() =>
      board === undefined
        ? store().boardsCreate(parent === '' ? name : `${parent}/${name}`)
        : store().boardsRename(board, name),
    );
  const places = [
    { value: '', label: t('triage.boards.top') },
    ...props.boards.map((path) => ({ value: path, label: path })),
  ];
  const title =
    board === undefined ? t('triage.boards.newTitle') : t('triage.boards.renameTitle', { board });
  const action = board === undefined ? t('triage.boards.create') : t('triage.boards.renameConfirm');
  return (
    <Dialog
      title={title}
      onClose={onClose}
      footer={
        <CancelAndAction label={action} onCancel={onClose} go={{ form }} disabled={request.busy} />
      }
    >
      <form
        id={form}
        className="board-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <TextField
          label={t('triage.boards.name')}
          value={name}
          onChange={setName}
          error={request.problem}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
        />
        {board === undefined ? (
          <SelectField
            className="field"
            label={t('triage.boards.place')}
            value={parent}
            options={places}
            onChange={setParent}
          />
        ) : null}
      </form>
    </Dialog>
  );
}

/** "Move to…": the board's new parent, chosen from the boards (or the top level). */
export function MoveBoardDialog(props: {
  board: string;
  boards: readonly string[];
  onClose: () => void;
  onDone: (path: string) => void;
}) {
  const { board, onClose } = props;
  const request = useRequest(props.onDone);
  const options = [
    { id: '', label: t('triage.boards.top') },
    ...props.boards.filter((path) => path !== board).map((path) => ({ id: path, label: path })),
  ];
  return (
    <Dialog title={t('triage.boards.moveTitle', { board })} onClose={onClose}>
      <BoardPicker
        label={t('triage.boards.moveTo')}
        listLabel={t('triage.chooser.list')}
        options={options}
        initial=""
        problem={request.problem}
        onPick={(parent) =>
          void request.run(() => useAppStore.getState().boardsMove(board, parent || null))
        }
      />
    </Dialog>
  );
}

/** Asks before deleting a board: the boards inside it go too, never an image. */
export function DeleteBoardDialog(props: {
  board: string;
  onClose: () => void;
  onDone: () => void;
}) {
  const { board, onClose } = props;
  const [problem, setProblem] = useState<Problem | null>(null);
  const remove = async (): Promise<void> => {
    try {
      await useAppStore.getState().boardsDelete(board);
      props.onDone();
    } catch (error) {
      setProblem(problemOf(error));
    }
  };
  return (
    <ConfirmDialog
      title={t('triage.boards.deleteTitle', { board })}
      body={problem ? problem.message : t('triage.boards.deleteBody')}
      confirmLabel={t('triage.boards.deleteConfirm')}
      danger
      onConfirm={() => void remove()}
      onCancel={onClose}
    />
  );
}
