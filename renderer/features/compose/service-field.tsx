/**
 * The service the form's tasks go to: today's contract ("Image task service", at the address in
 * Settings, or the built-in demo) or one of the providers Pictor speaks. The choice is the form's
 * own, sent with each submit (remembered as a setting across restarts); the model field follows
 * it. Shown on the prompt's label line, its label beside it. A service without a key says so in
 * the list, and one whose tasks would go to the built-in demo (composeTarget, what a submit
 * sends) is named as the demo, as those tasks are on every screen after.
 */
import { PROVIDER_IDS, demoStandsIn, type ProviderId } from '../../../shared/domain/providers';
import { isDemoEndpoint } from '../../../shared/domain/submit-target';
import { Field } from '../../components/field';
import { t } from '../../i18n';
import { lacksKey, serviceKeyState } from '../../lib/service-key-state';
import { serviceLabel } from '../../lib/service-label';
import { useAppStore } from '../../store/app-store';
import { composeTarget } from '../../store/compose-model';

/** The services with no key their tasks could be sent with (never one the demo stands in for). */
function useServicesWithoutKey(): ReadonlySet<ProviderId> {
  const keys = useAppStore((state) => state.serviceKeys);
  return new Set(
    PROVIDER_IDS.filter(
      (id) => !demoStandsIn(id) && lacksKey(serviceKeyState(keys?.[id], false, id)),
    ),
  );
}

/** The services whose new tasks go to the built-in demo now (the target a submit sends). */
function useServicesOnDemo(): ReadonlySet<ProviderId> {
  const onDemo = useAppStore((state) =>
    PROVIDER_IDS.filter((id) => isDemoEndpoint(composeTarget(state, id).endpoint)).join(' '),
  );
  return new Set(PROVIDER_IDS.filter((id) => onDemo.split(' ').includes(id)));
}

/** A service as the list names it: the demo standing in for it, or without a key, or itself. */
function optionLabel(id: ProviderId, onDemo: boolean, withoutKey: boolean): string {
  if (onDemo) return t('compose.service.demo', { service: serviceLabel(id) });
  return withoutKey ? t('compose.service.noKey', { service: serviceLabel(id) }) : serviceLabel(id);
}

export function ServiceField() {
  const provider = useAppStore((state) => state.composeDraft.provider);
  const choose = useAppStore((state) => state.composeChooseService);
  const withoutKey = useServicesWithoutKey();
  const onDemo = useServicesOnDemo();
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
              {optionLabel(id, onDemo.has(id), withoutKey.has(id))}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
