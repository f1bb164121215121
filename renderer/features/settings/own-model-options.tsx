/**
 * Settings' model options for the seed's own service, which publishes none: the options its model
 * page describes, given as a small JSON schema through main's own open dialog ("Options from a
 * file…": models:fromFile, the compose form's one channel; the page never names a path), or none
 * ("Use none": models:forget). Says which options are kept for the model; a refused file is main's
 * sentence under the buttons.
 */
import { useEffect, useState } from 'react';
import { DEFAULT_PROVIDER } from '../../../shared/domain/providers';
import { Button } from '../../components/button';
import { Field } from '../../components/field';
import { Spinner } from '../../components/spinner';
import { errorText, t } from '../../i18n';
import { ApiError } from '../../lib/api';
import { useAppStore } from '../../store/app-store';
import { paramsKey } from '../../store/compose-params';

/** The options kept for `model` of the user's own service, by name; null when none are. */
function useKeptNames(model: string): string[] | null {
  const kept = useAppStore((state) => state.modelOptionsKept);
  const found = kept.find((one) => one.provider === DEFAULT_PROVIDER && one.model === model);
  return found === undefined ? null : Object.keys(found.params);
}

/** Main's sentence of the last failure for `key`, in the shown language; null when none. */
function useProblemText(key: string): string | null {
  const problem = useAppStore((state) => state.modelOptionsProblem);
  if (problem?.key !== key) return null;
  const said = problem.problem;
  return said instanceof ApiError ? said.text() : errorText({ message: '', sentence: said });
}

export function OwnModelOptions() {
  const saved = useAppStore((state) => state.settings?.defaultModel ?? '');
  const [typed, setTyped] = useState(saved);
  // A newly saved default model is the one shown.
  useEffect(() => setTyped(saved), [saved]);
  const model = typed.trim();
  const key = paramsKey(DEFAULT_PROVIDER, model);
  const names = useKeptNames(model);
  const problem = useProblemText(key);
  const busy = useAppStore((state) => state.modelOptionsBusy === key);
  const fromFile = useAppStore((state) => state.modelOptionsFromFile);
  const forget = useAppStore((state) => state.modelOptionsForget);
  return (
    <div role="group" aria-label={t('compose.options.label')} className="settings-grid">
      <Field label={t('compose.model.label')} hint={t('settings.modelOptions.hint')}>
        {(control) => (
          <input
            {...control}
            className="input"
            value={typed}
            spellCheck={false}
            autoComplete="off"
            onChange={(event) => setTyped(event.target.value)}
          />
        )}
      </Field>
      {model === '' ? null : (
        <p className="muted" role="status">
          {names === null
            ? t('settings.modelOptions.none', { model })
            : t('settings.modelOptions.kept', { model, names: names.join(', ') })}
        </p>
      )}
      <div className="settings-actions">
        <Button
          disabled={model === '' || busy}
          aria-busy={busy ? 'true' : undefined}
          onClick={() => void fromFile(DEFAULT_PROVIDER, model)}
        >
          {busy ? <Spinner /> : null}
          {t(busy ? 'compose.options.reading' : 'compose.options.fromFile')}
        </Button>
        <Button disabled={names === null} onClick={() => void forget(DEFAULT_PROVIDER, model)}>
          {t('settings.modelOptions.useNone')}
        </Button>
      </div>
      {problem === null ? null : (
        <p className="field__error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
