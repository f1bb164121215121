/**
 * Where inputs go, shown and chosen: the route choice (Automatic, inside the request only,
 * upload, never upload) and, from main's plan, each target's route ("Inside the request",
 * "Uploaded to fal.ai first", a public link, a 48-hour upload), what was adapted (a safety
 * tolerance clamped) and each target left out with its reason, main's sentences in the window's
 * language. A target is named from main's facts as its checkbox names it and as its cells will
 * (lib/service-label.ts's `fanOutTargetName`), the plan's own, not the panel's slot now; a
 * target left out with its service's state now where it has no key ("fal.ai (no key) · …").
 */
import { INPUT_ROUTES, type InputRoute } from '../../../shared/domain/image-inputs';
import type { ProviderId } from '../../../shared/domain/providers';
import type { Sentence } from '../../../shared/i18n/sentence';
import type { EditPlanOutput, EditRoute } from '../../../shared/ipc/inputs-contract';
import { errorText, t, type MessageKey } from '../../i18n';
import { fanOutTargetName, serviceLabel } from '../../lib/service-label';
import type { Answer } from '../../store/edit-slice';
import { useServiceStandings } from '../../store/use-service-choices';

const ROUTE_LABELS: Readonly<Record<InputRoute, MessageKey>> = {
  auto: 'edit.route.auto',
  inline: 'edit.route.inline',
  upload: 'edit.route.upload',
  never: 'edit.route.never',
};

const HOUR_MS = 3_600_000;

/** How one target's inputs travel, in a sentence. */
function routeText(
  route: EditRoute,
  target: { readonly service?: ProviderId | undefined },
): string {
  if (route.route === 'inline') return t('edit.goes.inline');
  if (route.publicLinks) return t('edit.goes.public');
  if (route.lifetimeMs !== undefined)
    return t('edit.goes.lifetime', { hours: Math.round(route.lifetimeMs / HOUR_MS) });
  return t('edit.goes.upload', { service: target.service ? serviceLabel(target.service) : '' });
}

/** One of main's sentences in the window's language. */
const said = (sentence: Sentence) => errorText({ message: '', sentence });

interface RouteChoiceProps {
  readonly route: InputRoute;
  readonly neverUpload: boolean;
  readonly name: string;
  readonly onChange: (route: InputRoute) => void;
}

/** The route choice; under "Never upload inputs" the upload is not offered. */
export function RouteChoice({ route, neverUpload, name, onChange }: RouteChoiceProps) {
  return (
    <fieldset className="radio-group" aria-describedby={neverUpload ? `${name}-never` : undefined}>
      <legend className="field__label">{t('edit.routeChoice')}</legend>
      {INPUT_ROUTES.map((choice) => (
        <label key={choice} className="checkbox">
          <input
            type="radio"
            name={name}
            value={choice}
            checked={route === choice}
            disabled={neverUpload && choice === 'upload'}
            onChange={() => onChange(choice)}
          />
          {t(ROUTE_LABELS[choice])}
        </label>
      ))}
      {neverUpload ? (
        <p className="field__hint" id={`${name}-never`}>
          {t('edit.neverSetting')}
        </p>
      ) : null}
    </fieldset>
  );
}

interface PlanProps {
  readonly answer: Answer<EditPlanOutput> | null;
  readonly waiting: boolean;
  readonly refused: string | null;
}

export function EditPlanFacts({ answer, waiting, refused }: PlanProps) {
  const standing = useServiceStandings();
  if (waiting) return <p role="status">{t('edit.planning')}</p>;
  if (answer === null) return refused ? <p role="alert">{refused}</p> : null;
  if (!answer.ok) return <p role="alert">{answer.message}</p>;
  const plan = answer.value;
  return (
    <div className="edit-plan" aria-live="polite">
      <ul aria-label={t('edit.routeChoice')}>
        {plan.targets.map((target) => (
          <li key={target.slot} data-testid={`edit-route-${String(target.slot)}`}>
            <strong>
              {t('edit.target', { slot: target.slot, label: fanOutTargetName(target) })}
            </strong>{' '}
            {routeText(target.inputs, target)}
            {target.notes.length > 0 ? (
              <p>
                {t('edit.adapted', { label: fanOutTargetName(target) })}{' '}
                {target.notes.map(said).join(' ')}
              </p>
            ) : null}
          </li>
        ))}
        {plan.leftOut.map((out) => (
          <li key={`out-${String(out.slot)}`}>
            <strong>
              {t('edit.leftOut', {
                label: fanOutTargetName(out, out.service && standing[out.service]),
              })}
            </strong>{' '}
            {said(out.reason)}
          </li>
        ))}
        {plan.warnings.map((warning, n) => (
          <li key={`warning-${String(n)}`}>{said(warning)}</li>
        ))}
      </ul>
      {plan.refusal ? <p role="alert">{said(plan.refusal)}</p> : null}
      {refused ? <p role="alert">{refused}</p> : null}
    </div>
  );
}
