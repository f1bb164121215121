/**
 * Generate, named with the count it would send, and showing what the spending caps say of it
 * before it is pressed: blocked (a hard cap will refuse it) or warned (it passes a soft cap),
 * described by the caps' forecast under the form. It stays a button that submits: a refused
 * submit says why, once, and keeps what was typed.
 */
import { Button } from '../../components/button';
import { t } from '../../i18n';
import { checkCount } from '../../lib/request-validation';
import { useCapVerdict } from './cost-estimate';

export function SubmitButton({
  count: typed,
  title,
  forecastId,
}: {
  count: string;
  title: string;
  forecastId: string;
}) {
  const verdict = useCapVerdict();
  // Only a count the form would send is named on the button (never "Generate 11").
  const count = checkCount(typed);
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
        {count.ok && count.value > 1
          ? t('compose.submitMany', { count: count.value })
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
