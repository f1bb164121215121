/**
 * Local servers of other users that Pictor may send to: one `host:port` a line. On Linux, main
 * refuses a loopback server another user of this computer runs (it could read the prompts, images
 * and key: core/service/local-server-gate.ts) unless its address is listed here; main checks and
 * normalises each line, and its refusal shows under the field.
 */
import { useEffect, useState } from 'react';
import type { Settings } from '../../../shared/domain/settings';
import { Field } from '../../components/field';
import { t } from '../../i18n';
import { fieldProblem } from './field-error';
import type { SettingSaver } from './use-setting-save';

const FIELD = 'allowedLocalServers';

function linesOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

export function LocalServersField({
  settings,
  saver,
}: {
  settings: Settings;
  saver: SettingSaver;
}) {
  const kept = settings.allowedLocalServers.join('\n');
  const [text, setText] = useState(kept);
  useEffect(() => setText(kept), [kept]);
  const commit = (): void => {
    const lines = linesOf(text);
    if (lines.join('\n') !== kept) void saver.save(FIELD, { allowedLocalServers: lines });
  };
  return (
    <Field
      label={t('settings.localServers.label')}
      hint={t('settings.localServers.hint')}
      error={fieldProblem(undefined, saver.errorOf(FIELD))}
    >
      {(control) => (
        <textarea
          {...control}
          className="input mono"
          rows={2}
          spellCheck={false}
          placeholder="127.0.0.1:8188"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            saver.clearError(FIELD);
          }}
          onBlur={commit}
        />
      )}
    </Field>
  );
}
