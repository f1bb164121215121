/**
 * The service the form's tasks go to: today's contract ("Image task service", at the address in
 * Settings, or the built-in demo) or one of the providers Pictor speaks. The choice is the form's
 * own, sent with each submit (remembered as a setting across restarts); the model field follows
 * it. Shown on the prompt's label line, its label beside it. Each service is named as where its
 * tasks would go now (store/use-service-choices.ts, as a compare target's box names it): the
 * demo standing in for it, without a key, or itself.
 */
import { PROVIDER_IDS } from '../../../shared/domain/providers';
import { Field } from '../../components/field';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { useServiceChoices } from '../../store/use-service-choices';

export function ServiceField() {
  const provider = useAppStore((state) => state.composeDraft.provider);
  const choose = useAppStore((state) => state.composeChooseService);
  const choices = useServiceChoices();
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
          {choices.map(({ value, label }) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
