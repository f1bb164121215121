/**
 * Generate, named with the number of tasks it would send (a template's expansion included), and
 * showing what the spending caps say of it before it is pressed: blocked (a hard cap will refuse it) or warned (it passes a soft cap),
 * described by the caps' forecast under the form. It stays a button that submits: a refused
 * submit says why, once, and keeps what was typed.
 */
import { Button } from '../../components/button';
import { t } from '../../i18n';
import { useCapVerdict } from './cost-estimate';
import { useComposeTaskCount } from './use-template-expansion';

export function SubmitButton({ title, forecastId }: { title: string; forecastId: string }) {
  const verdict = useCapVerdict();
  // Every task it would send is named (a template's prompts times the count), and only a count
  // the form would send (never "Generate 11").
  const { tasks } = useComposeTaskCount();
  const icon = verdict === 'blocked' ? 'error' : verdict === 'warned' ? 'warning' : 'send';
  return (
    <div className="compose__submit">
      <Button
        type="submit"
        variant="primary"
        icon={icon}
        title={title}
        className={verdict ? `compose__submit-button--${verdict}` : undefined}
        aria-describedby={verdict ? forecastId : undefined}
      >
        {tasks !== null && tasks > 1
          ? t('compose.submitMany', { count: tasks })
          : t('compose.submit')}
        {verdict ? (
          <span className="compose__cap-flag">
            {t(verdict === 'blocked' ? 'costs.compose.blocked' : 'costs.compose.warned')}
          </span>
        ) : null}
      </Button>
    </div>
  );
}
