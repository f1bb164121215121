/**
 * The service the form's tasks go to: today's contract ("Image task service", at the address in
 * Settings, or the built-in demo) or one of the providers Pictor speaks. The choice is the form's
 * own, sent with each submit (remembered as a setting across restarts); the model field follows
 * it. Shown on the prompt's label line, its label beside it.
 */
import { PROVIDER_IDS } from '../../../shared/domain/providers';
import { Field } from '../../components/field';
import { t } from '../../i18n';
import { serviceLabel } from '../../lib/service-label';
import { useAppStore } from '../../store/app-store';

export function ServiceField() {
  const provider = useAppStore((state) => state.composeDraft.provider);
  const choose = useAppStore((state) => state.composeChooseService);
  return (
    <Field label={t('compose.service.label')} className="compose__service">
      {(control) => (
        <select
          {...control}
          className="select"
          value={provider}
          onChange={(event) => {
            const chosen = PROVIDER_IDS.find((id) => id === event.target.value);
            if (chosen) void choose(chosen);
          }}
        >
          {PROVIDER_IDS.map((id) => (
            <option key={id} value={id}>
              {serviceLabel(id)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
