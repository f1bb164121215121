/**
 * `pictor mcp`'s command line: the service its tools submit to (--provider, --base-url; the
 * built-in demo with --provider demo), the library (--data-dir, --gallery-dir), how tasks are
 * polled, and the connection's limits: what it may spend (--max-spend USD, or PICTOR_MCP_MAX_SPEND)
 * and how many tasks it may send (--max-tasks N, or PICTOR_MCP_MAX_TASKS; 200 unless set).
 * Nothing here comes from an agent: only the user who configures the server sets these.
 */
import { DEMO_ENDPOINT, type SubmitTarget } from '../../shared/domain/submit-target';
import { UsageError, parseCommandLine } from '../core/command-line';
import { common, type CommonOptions } from './common-args';
import { serviceChoice, type ServiceChoice } from './service-args';
import type { Values } from './cli-args';

export const MCP_OPTIONS = {
  'base-url': { type: 'string' },
  provider: { type: 'string' },
  'data-dir': { type: 'string' },
  'gallery-dir': { type: 'string' },
  'poll-interval': { type: 'string' },
  timeout: { type: 'string' },
  'max-spend': { type: 'string' },
  'max-tasks': { type: 'string' },
  verbose: { type: 'boolean' },
} as const;

/** The environment variable that sets the connection's spending limit (--max-spend wins). */
export const MAX_SPEND_ENV = 'PICTOR_MCP_MAX_SPEND';

/** The environment variable that sets the connection's task limit (--max-tasks wins). */
export const MAX_TASKS_ENV = 'PICTOR_MCP_MAX_TASKS';

/**
 * The tasks a connection may send when the user set no limit: two full submits (100 each), enough
 * for an agent's work on a library, and a bound on one looping where nothing costs money (a free
 * service, one with no price or no cap), which no spending limit would ever stop.
 */
export const DEFAULT_MAX_TASKS = 200;

/** The most a limit may say: a typo of extra zeros is refused, not trusted. */
const MAX_LIMIT_USD = 100_000;
const MAX_LIMIT_TASKS = 100_000;

export interface McpCommand {
  readonly name: 'mcp';
  readonly service: ServiceChoice;
  /** Where the tools' submits go: the service named, or the built-in demo (`demo:`). */
  readonly target: SubmitTarget;
  /** The most this connection may spend, in USD micros; null: only the library's caps. */
  readonly maxSpendMicros: number | null;
  /** The most tasks this connection may send. */
  readonly maxTasks: number;
  readonly common: CommonOptions;
}

/** A limit in USD as typed ("2", "0.50"), in micros; a usage error names where it came from. */
function spendLimit(raw: string | undefined, from: string): number | null {
  if (raw === undefined || raw.trim() === '') return null;
  const text = raw.trim();
  const amount = /^\d{1,6}(\.\d{1,6})?$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(amount) || amount > MAX_LIMIT_USD) {
    throw new UsageError(
      `${from} takes an amount in US dollars from 0 to ${String(MAX_LIMIT_USD)}, such as 2 or 0.50.`,
    );
  }
  return Math.round(amount * 1_000_000);
}

/** A task limit as typed ("50"), or null when not given; a usage error names where it came from. */
function taskLimit(raw: string | undefined, from: string): number | null {
  if (raw === undefined || raw.trim() === '') return null;
  const text = raw.trim();
  const count = /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(count) || count < 1 || count > MAX_LIMIT_TASKS) {
    throw new UsageError(
      `${from} takes a whole number of tasks from 1 to ${String(MAX_LIMIT_TASKS)}, such as 50.`,
    );
  }
  return count;
}

/** Where the tools' submits go. @throws UsageError when the service has no address. */
function targetOf(service: ServiceChoice): SubmitTarget {
  if (service.builtInDemo) return { provider: service.provider, endpoint: DEMO_ENDPOINT };
  if (service.baseUrl === null) {
    throw new UsageError(
      'mcp needs --base-url URL (the service address), or --provider ID of a service with its own address; --provider demo runs the built-in demo service.',
    );
  }
  return { provider: service.provider, endpoint: service.baseUrl };
}

/**
 * `mcp [--provider ID] [--base-url URL] [--max-spend USD] [--max-tasks N] [library options]`: no
 * arguments.
 */
export function parseMcp(args: readonly string[], env: NodeJS.ProcessEnv): McpCommand {
  const { values, positionals } = parseCommandLine(args, MCP_OPTIONS, true);
  if (positionals.length > 0) {
    // Not repeated: a stray word may be a key pasted in the wrong place.
    throw new UsageError('mcp takes no arguments, only options: see pictor mcp --help.');
  }
  const fromOption = spendLimit(values['max-spend'], '--max-spend');
  const maxSpendMicros = fromOption ?? spendLimit(env[MAX_SPEND_ENV], MAX_SPEND_ENV);
  const maxTasks =
    taskLimit(values['max-tasks'], '--max-tasks') ??
    taskLimit(env[MAX_TASKS_ENV], MAX_TASKS_ENV) ??
    DEFAULT_MAX_TASKS;
  const service = serviceChoice(values as Values, 'mcp');
  return {
    name: 'mcp',
    service,
    target: targetOf(service),
    maxSpendMicros,
    maxTasks,
    common: common(values, env),
  };
}
