/**
 * The models the edit goes to, 1 to 6 at once (the compare's fan-out): every model that does
 * the operation, each one that cannot be used now disabled with its reason (the model that
 * would, or the service to set up). Each is named as the plan below it and the compare cells
 * name it: service, then model; the service as the compose form's and compare's Service boxes
 * name it now (its standing: "(no key: demo)", "(no key)", "(unreachable)").
 */
import { useId } from 'react';
import { COMPARE_TARGETS } from '../../../shared/domain/compare';
import type { ProviderId } from '../../../shared/domain/providers';
import { t } from '../../i18n';
import type { ServiceKeyState } from '../../lib/service-key-state';
import { targetName } from '../../lib/service-label';
import type { EditTarget as Target } from '../../store/edit-draft';
import type { ModelChoice } from './edit-model';

interface TargetsProps {
  readonly choices: readonly ModelChoice[];
  readonly targets: readonly Target[];
  /** Each service's standing now (useServiceStandings). */
  readonly standing: Readonly<Record<ProviderId, ServiceKeyState | null>>;
  readonly onChange: (targets: Target[]) => void;
}

const same = (a: Target, b: Target) => a.provider === b.provider && a.model === b.model;

export function EditTargets({ choices, targets, standing, onChange }: TargetsProps) {
  const id = useId();
  const full = targets.length >= COMPARE_TARGETS.max;
  return (
    <fieldset className="edit-targets" aria-describedby={`${id}-hint`}>
      <legend className="field__label">{t('edit.targets')}</legend>
      <p className="field__hint" id={`${id}-hint`}>
        {t('edit.targetsHint')}
      </p>
      {choices.map((choice, n) => {
        const chosen = targets.some((target) => same(target, choice));
        const reason = `${id}-${String(n)}`;
        return (
          <div key={`${choice.provider}/${choice.model}`} className="edit-choice">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={chosen}
                disabled={choice.blocked !== null || (full && !chosen)}
                aria-describedby={choice.blocked === null ? undefined : reason}
                onChange={(event) =>
                  onChange(
                    event.target.checked
                      ? [...targets, { provider: choice.provider, model: choice.model }]
                      : targets.filter((target) => !same(target, choice)),
                  )
                }
              />
              {targetName(choice, standing[choice.provider])}
            </label>
            {choice.blocked === null ? null : (
              <p className="field__hint" id={reason}>
                {choice.blocked}
              </p>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}
