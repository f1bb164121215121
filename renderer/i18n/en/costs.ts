/** English strings of what tasks cost: the Costs screen, costs in tasks, prices and caps. */
export const costs = {
  'costs.source.reported': 'reported',
  'costs.source.estimated': 'estimate',
  'costs.source.not_billed': 'not billed',
  'costs.source.free': 'free (demo)',
  'costs.source.unknown': 'cost unknown',
  /** A cost on a task row: `$0.04 (estimate)`. */
  'costs.withSource': '{amount} ({source})',
  'costs.detail.reported': '{amount}, reported by the service',
  'costs.detail.estimated':
    '{amount}, estimated from your price per {basis, select, image {image} other {megapixel}}',

  'costs.title': 'Costs',
  'costs.loading': 'Loading costs…',
  'costs.period.label': 'Period',
  'costs.period.today': 'Today',
  'costs.period.month': 'This month',
  'costs.period.last30': 'Last 30 days',
  'costs.period.all': 'All time',
  'costs.export': 'Export CSV',
  'costs.exported': 'The costs were saved to {path}.',
  'costs.totals.title': 'Totals',
  'costs.totals.estimated': 'of which estimated: {amount}',
  'costs.totals.unknown': 'Tasks of unknown cost: {count}',
  'costs.byDay.title': 'Per day, in {unit}',
  'costs.byService.title': 'Per service, in {unit}',
  'costs.list.title': 'Tasks and their costs',
  'costs.list.created': 'Created',
  'costs.list.service': 'Service',
  'costs.list.model': 'Model',
  'costs.list.cost': 'Cost',
  'costs.list.more': 'The newest {shown} of {total} tasks are listed; the totals count them all.',
  'costs.empty.title': 'No costs yet',
  'costs.empty.body':
    'Tasks you submit show what they cost here: what the service reported, or an estimate from a price you set in Settings.',

  'costs.settings.title': 'Costs',
  'costs.settings.prices': 'Prices',
  'costs.settings.pricesHint':
    'Pictor estimates what a task costs from these prices when the service does not say.',
  'costs.settings.service': 'Service',
  'costs.settings.model': 'Model (empty: every model)',
  'costs.settings.amount': 'Amount',
  'costs.settings.unit': 'Unit',
  'costs.settings.basis': 'Per',
  'costs.settings.creditsUnit': 'credits',
  'costs.settings.perImage': 'image',
  'costs.settings.perMegapixel': 'megapixel',
  'costs.settings.setPrice': 'Set price',
  'costs.settings.everyModel': 'every model',
  'costs.settings.priceLine':
    '{service}, {model}: {amount} per {basis, select, image {image} other {megapixel}}',
  'costs.settings.noPrices': 'No prices set.',
  'costs.settings.remove': 'Remove',
  'costs.settings.caps': 'Spending caps',
  'costs.settings.capsHint':
    'A soft cap warns before a submit that would pass it; a hard cap refuses that submit.',
  'costs.settings.capsDemo':
    'Tasks on the built-in demo are free: no cap counts them or stops them, so it is not listed here.',
  'costs.settings.period': 'Period',
  'costs.settings.day': 'Day',
  'costs.settings.month': 'Month',
  'costs.settings.allServices': 'All services',
  'costs.settings.kind': 'Kind',
  'costs.settings.soft': 'Soft: warn',
  'costs.settings.hard': 'Hard: refuse',
  'costs.settings.setCap': 'Set cap',
  'costs.settings.capLine':
    '{kind, select, soft {Soft} other {Hard}} cap per {period, select, day {day} other {month}}, {scope}: {cap}. Spent so far: {spent}',
  'costs.settings.noCaps': 'No spending caps set.',

  /** An account's balance as "Test connection" read it, and when. */
  'costs.balance': 'Balance: {amount}, read {time}',
  'costs.compose.estimate': 'This submit costs about {total} ({each} per task, {source}).',

  /** An amount typed for a price or a cap that Pictor refuses; amounts are written as money. */
  'costs.amount.empty': 'Type an amount from {min} to {max}, such as {example}.',
  'costs.amount.notNumber':
    '“{value}” is not an amount. Type a number from {min} to {max}, such as {example}.',
  'costs.amount.negative': '“{value}” is negative. Type an amount from {min} to {max}.',
  'costs.amount.finer':
    '“{value}” is finer than {step}, the smallest step Pictor keeps. Type 0, or an amount from {step} to {max}.',
  'costs.amount.tooLarge':
    '“{value}” is more than {max}, the most {kind, select, price {a price} other {a cap}} may be.',
  'costs.amount.ambiguous':
    '“{value}” could be read as {whole} or as {decimal}. Type {whole} or {decimal}.',
  'costs.amount.otherUnit':
    '“{value}” is not in {unit}. Type the amount in {unit}, or choose its unit under Unit.',

  /** The caps' forecast under the compose form, before a submit. */
  'costs.forecast.over':
    '{count, plural, one {Generating this} other {Generating #}} (about {adding}) would pass your {kind, select, soft {soft } other {}}{period, select, day {daily} other {monthly}} cap of {cap}{scope, select, all {} other { for {service}}}; {spent} spent {period, select, day {today} other {this month}}.',
  'costs.forecast.unpriced':
    'Your hard {period, select, day {daily} other {monthly}} cap in {unit} cannot count this submit: {service} has no price in {unit} for {named, select, yes {the model {model}} other {its default model}}.',
  'costs.forecast.unpricedSpent':
    'Your hard {period, select, day {daily} other {monthly}} cap in {unit} cannot count {tasks, plural, one {# task} other {# tasks}} of {service} from {period, select, day {today} other {this month}}: {tasks, plural, one {it has} other {they have}} no price in {unit}.',
  'costs.forecast.blocked':
    'Pictor will not send it: raise or clear the hard cap, or set the missing price, in Prices and caps.',
  'costs.forecast.warned': 'It is a soft cap: you can still generate.',
  /**
   * A submit a hard cap refused, as the form says it: the cap, what its period spent and what the
   * submit adds first; then each price it lacks (the forecast's sentences), with a link to it.
   */
  'costs.refusal.lead':
    'Nothing was sent: {spent} of your {period, select, day {daily} other {monthly}} hard cap of {cap}{scope, select, all {} other { for {service}}} is spent, and this submit adds about {adding}.',
  'costs.refusal.setPrice': 'Set a price in {unit} for {service}',
  'costs.compose.blocked': 'over your hard cap',
  'costs.compose.warned': 'over your soft cap',
  'costs.pricesAndCaps': 'Prices and caps',

  /** The Costs screen's tasks: each with its prompt, opening it while the history lists it. */
  'costs.list.task': 'Task',
  'costs.list.noPrompt': '(no prompt)',
  'costs.list.openHint': 'Open this task in Tasks',
  'costs.list.removed': 'Removed from the history; what it cost stays here.',
  'costs.list.gone': 'That task is no longer in the history.',
  /** A period (and service) with no costs, while other periods have some. */
  'costs.emptyFilter.title':
    'No costs {period, select, today {today} month {this month} last30 {in the last 30 days} other {at all}}{scope, select, all {} other { for {service}}}',
  'costs.emptyFilter.body':
    '{period, select, all {Pictor has costs of other services.} other {{scope, select, all {Pictor has costs from other periods.} other {Pictor has costs from other periods or services.}}}} Choose another period or service to see them.',
  'costs.emptyFilter.allTime': 'Show all time',
  'costs.emptyFilter.allServices': 'Show all services',
  /** The Costs screen's list, a page at a time: the button that adds the next page. */
  'costs.list.showMore': 'Show more tasks',
  'costs.list.loadingMore': 'Loading more tasks…',
} as const;
