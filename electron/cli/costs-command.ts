/** `costs`, `caps` and `prices` (cost-args.ts reads them, cost-commands.ts runs them). */
import { readOptions } from './cli-args';
import { declareCommand, type CliCommand } from './command-declaration';
import { common } from './common-args';
import { COST_HELP, parseCostCommand } from './cost-args';
import { runCostCommand } from './cost-commands';
import { serviceOption } from './service-args';

function costCommand(name: keyof typeof COST_HELP): CliCommand {
  return declareCommand({
    help: COST_HELP[name],
    parse: (args, env) => {
      const { values, positionals } = readOptions(args);
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
