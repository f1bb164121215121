/** `costs`, `caps` and `prices` (cost-args.ts reads them, cost-commands.ts runs them). */
import { common } from './common-args';
import { COST_HELP, parseCostCommand } from './cost-args';
import { runCostCommand } from './cost-commands';
import { libraryCommandFamily } from './library-command';
import { serviceOption } from './service-args';

const costCommand = libraryCommandFamily({
  help: COST_HELP,
  /** Each cost command's options besides those of its help's groups. */
  own: {
    costs: ['since', 'provider', 'json', 'csv', 'time-zone'],
    caps: ['json', 'period', 'amount', 'unit', 'provider', 'soft', 'hard'],
    prices: ['json', 'provider', 'model', 'amount', 'unit', 'per'],
  },
  parse: (name, { values, positionals }, env) => {
    const dataDir = common(values, env).dataDir;
    const provider = serviceOption(values.provider, name);
    return parseCostCommand({ name, rest: positionals, values, dataDir, provider });
  },
  run: runCostCommand,
});

export const costs = costCommand('costs');
export const caps = costCommand('caps');
export const prices = costCommand('prices');
