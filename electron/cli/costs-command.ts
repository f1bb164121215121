/** `costs`, `caps` and `prices` (cost-args.ts reads them, cost-commands.ts runs them). */
import { optionsOf, readOptions, type OptionName } from './cli-args';
import { declareCommand, type CliCommand } from './command-declaration';
import { common } from './common-args';
import { COST_HELP, parseCostCommand } from './cost-args';
import { runCostCommand } from './cost-commands';
import { serviceOption } from './service-args';

/** Each cost command's options besides those of its help's groups. */
const OWN_OPTIONS: Readonly<Record<keyof typeof COST_HELP, readonly OptionName[]>> = {
  costs: ['since', 'provider', 'json', 'csv', 'time-zone'],
  caps: ['json', 'period', 'amount', 'unit', 'provider', 'soft', 'hard'],
  prices: ['json', 'provider', 'model', 'amount', 'unit', 'per'],
};

function costCommand(name: keyof typeof COST_HELP): CliCommand {
  const options = optionsOf(COST_HELP[name], OWN_OPTIONS[name]);
  return declareCommand({
    help: COST_HELP[name],
    options,
    parse: (args, env) => {
      const { values, positionals } = readOptions(name, args, options);
      const dataDir = common(values, env).dataDir;
      const provider = serviceOption(values.provider, name);
      return parseCostCommand({ name, rest: positionals, values, dataDir, provider });
    },
    run: runCostCommand,
  });
}

export const costs = costCommand('costs');
export const caps = costCommand('caps');
export const prices = costCommand('prices');
