/**
 * "Generate into": the board the form's new images join as they arrive. Its default is the
 * target board (the one B toggles in the gallery); None puts them into no board. The library's
 * boards are listed by path, parents before children, and read again whenever the field gets the
 * focus (the CLI or another window may have made one since). A board chosen that the library no
 * longer has stays listed: main makes it again when the tasks are submitted.
 */
import { useEffect } from 'react';
import { boardKey } from '../../../shared/domain/triage';
import { Field } from '../../components/field';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { composeBoardOf } from '../../store/compose-model';

/** The paths the field offers: the library's, and the board named now if it is not among them. */
function boardPaths(library: readonly { readonly path: string }[], named: string | null) {
  const paths = library.map((row) => row.path);
  const key = named === null ? null : boardKey(named);
  const listed = paths.find((path) => boardKey(path) === key);
  return { paths: named === null || listed ? paths : [...paths, named], value: listed ?? named };
}

export function BoardField() {
  const named = useAppStore(composeBoardOf);
  const library = useAppStore((state) => state.triageLibrary?.boards);
  const load = useAppStore((state) => state.triageLoadLibrary);
  const choose = useAppStore((state) => state.composeChooseBoard);
  useEffect(() => {
    // Once, when the form first shows: the gallery's actions keep the list current after.
    if (library === undefined) void load();
  }, []);
  const { paths, value } = boardPaths(library ?? [], named);
  return (
    <Field label={t('compose.board.label')} className="compose__board">
      {(control) => (
        <select
          {...control}
          className="select"
          title={t('compose.board.hint')}
          value={value ?? ''}
          onFocus={() => void load()}
          onChange={(event) => choose(event.target.value === '' ? null : event.target.value)}
        >
          <option value="">{t('compose.board.none')}</option>
          {paths.map((path) => (
            <option key={path} value={path}>
              {path}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
