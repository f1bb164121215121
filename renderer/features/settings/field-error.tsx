/** The reason a setting was refused, under its field: a catalogue reason or the main's sentence. */
import { t, type MessageKey } from '../../i18n';
import type { ApiError } from '../../lib/api';
import { ErrorMessage } from '../../components/error-message';
import type { FieldProblem } from '../../components/field';

export function FieldError({
  id,
  reason,
  error,
}: {
  id: string;
  reason?: MessageKey | undefined;
  error?: ApiError | null;
}) {
  if (reason) {
    return (
      <p className="field__error" id={id}>
        {t(reason)}
      </p>
    );
  }
  // text(): main's sentence in the language shown now, also after the language changes.
  if (error) return <ErrorMessage id={id} message={error.text()} detail={error.detail} />;
  return null;
}

/** What a setting's Field shows: the value's own problem first, else the main's refusal. */
export function fieldProblem(
  reason: MessageKey | undefined,
  error: ApiError | null,
): FieldProblem | null {
  return reason ? t(reason) : error;
}
