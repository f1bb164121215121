/**
 * Sentences of the cost ledger and the spending caps (merged into shared/i18n/main-messages.ts):
 * keys `error.costs.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for every
 * value. Amounts arrive as plain decimals with their unit (`0.04`, `USD`); the catalogue writes
 * those named in shared/i18n/money.ts's MONEY_PARAMS as money (`$0.04`), so a sentence writes
 * `{cap}`, never `{cap} {unit}`.
 */
const PERIOD = '{period, select, day {daily} other {monthly}}';
const SCOPE = '{scope, select, all {all services} other {{service}}}';

export const costErrors = {
  'error.costs.hardCap': `Nothing was submitted: this would pass your ${PERIOD} spending cap of {cap} for ${SCOPE}. Spent so far: {spent}; this submit adds about {adding}. Raise or clear the cap in Settings to go on.`,
  'error.costs.softCap': `This submit passes your soft ${PERIOD} spending cap of {cap} for ${SCOPE}: {spent} spent so far, and it adds about {adding}.`,
  'error.costs.capKept':
    'The spending cap was not changed: a hard cap is raised or removed only once you agree in Pictor’s own dialog.',
  'error.costs.unpriced':
    'Nothing was submitted: a hard spending cap in {unit} applies to {service}, and {service} has no price in {unit} for the model {model}, so Pictor cannot tell what this submit costs in {unit}. Set a price in {unit} for {service} in Settings › Costs, then submit again.',
  'error.costs.unpricedSpent': `Nothing was submitted: your hard ${PERIOD} spending cap in {unit} cannot count {tasks, plural, one {# task} other {# tasks}} of {service} from this period, which {tasks, plural, one {has} other {have}} no price in {unit}. Set a price in {unit} for {service} in Settings › Costs, then submit again.`,
} as const;
