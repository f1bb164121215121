/**
 * `--provider demo` and `pictor demo`: Pictor's built-in demo service, as the app has it, started
 * inside one command (built-in-demo.ts) so the command line can be tried with no key and no
 * address. It is not a sixth provider: its tasks are today's contract's, on the endpoint `demo:`
 * (as the app's demo tasks are), free, and resumed with `--provider demo`.
 */
import { DEMO_SERVICE_ID } from '../../shared/domain/service-id';

/** The `--provider` value that names the built-in demo (its id everywhere: service-id.ts). */
export const DEMO_OPTION = DEMO_SERVICE_ID;

/** A `--provider` value as the CLI reads it: a provider's id, or the built-in demo. */
export function isDemoOption(raw: string | undefined): boolean {
  return raw?.trim() === DEMO_OPTION;
}

/**
 * The commands `--provider demo` works with (the others are about real services): those that run
 * the demo, and those that read its tasks (list, costs).
 */
export const DEMO_COMMANDS = [
  'generate',
  'edit',
  'upscale',
  'resume',
  'list',
  'costs',
  'mcp',
] as const;

/** What `pictor demo` draws when it is given no prompt. */
export const SAMPLE_PROMPT = 'a lighthouse on a rocky coast at dusk';

/** Said on stderr when a command starts the built-in demo. */
export function demoStartedLine(keyIgnored: boolean): string {
  const key = keyIgnored ? ' SERVICE_API_KEY is not used, and goes nowhere.' : '';
  return `Using Pictor's built-in demo service, started inside this command on 127.0.0.1: no key, no account, nothing leaves this computer. Its pictures are drawn here as examples, not by an image model.${key}\n`;
}

/** Said by `pictor demo` first: what it is. */
export function demoCommandLine(program: string): string {
  return `${program} demo is ${program} generate --provider demo: it runs Pictor's command line against its built-in demo service, with no key and no service to set up.\n`;
}

/** Said by `pictor demo` when it was given no prompt. */
export const SAMPLE_PROMPT_LINE = `No prompt given, so the sample prompt "${SAMPLE_PROMPT}" is used (type your own after demo).\n`;

/** Said by `pictor demo` at the end: the next step, to a real service. */
export function demoNextLine(program: string): string {
  return `To use a real service, set SERVICE_API_KEY to its key and run ${program} generate --provider ID "your prompt" (${program} help generate lists the services and their addresses).\n`;
}
