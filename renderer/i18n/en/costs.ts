/** English strings of what tasks cost: the Costs screen, costs in tasks, prices and caps. */
export const costs = {
  /** An amount of credits, already formatted (`3`, `0.5`). */
  'costs.credits': '{amount} credits',
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
  'costs.settings.badAmount': 'Type an amount such as 0.04.',

  /** An account's balance as "Test connection" read it, and when. */
  'costs.balance': 'Balance: {amount}, read {time}',
  'costs.compose.estimate': 'This submit costs about {total} ({each} per task, {source}).',
} as const;
