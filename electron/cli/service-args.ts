/**
 * The service a command talks to, from --provider and --base-url: a provider at its address (the
 * one typed, else its own), or the built-in demo (`--provider demo`, demo-choice.ts), which takes
 * no address. Where generate's tasks go (its submit target) is built from the same.
 */
import {
  DEFAULT_PROVIDER,
  PROVIDERS,
  PROVIDER_IDS,
  parseProviderId,
  type ProviderId,
} from '../../shared/domain/providers';
import { DEMO_ENDPOINT, type SubmitTarget } from '../../shared/domain/submit-target';
import { UsageError } from '../core/command-line';
import { DEMO_COMMANDS, DEMO_OPTION, isDemoOption } from './demo-choice';
import type { ServiceId } from '../../shared/domain/service-id';

/** The options a service is named with. */
interface Values {
  readonly provider?: string | undefined;
  readonly 'base-url'?: string | undefined;
}

/**
 * The service a command talks to: its kind (--provider) and its address. `baseUrl` is --base-url
 * when given, else the provider's documented address (`null` for today's contract, which has
 * none: the key then goes nowhere).
 */
export interface ServiceChoice {
  readonly provider: ProviderId;
  readonly baseUrl: string | null;
  /** The user typed --base-url: printed commands repeat it (an address Pictor chose is not). */
  readonly baseUrlTyped: boolean;
  /**
   * --provider demo: the built-in demo service, started inside the command (demo-choice.ts);
   * `provider` is then today's contract and `baseUrl` null.
   */
  readonly builtInDemo?: true;
}

/**
 * --provider's value: one of the ids, else a usage error that lists them. `demo` (the built-in
 * demo) is read by the commands it works with (serviceChoice, list) and refused by the others.
 */
export function providerOption(raw: string | undefined, command: string): ProviderId | null {
  if (raw === undefined) return null;
  const provider = parseProviderId(raw.trim());
  if (provider !== null) return provider;
  const demoHere = (DEMO_COMMANDS as readonly string[]).includes(command);
  if (isDemoOption(raw) && !demoHere) {
    throw new UsageError(
      `--provider demo (Pictor's built-in demo service) works with ${DEMO_COMMANDS.join(', ')}; ${command} is about a real service's tasks.`,
    );
  }
  // Not repeated: a stray value may be the key pasted in the wrong place.
  const demo = demoHere ? `, or ${DEMO_OPTION} (Pictor's built-in demo service)` : '';
  throw new UsageError(`--provider takes one of: ${PROVIDER_IDS.join(', ')}${demo}.`);
}

/** The commands that run the built-in demo with --provider demo (list only reads its tasks). */
const DEMO_SERVICE_COMMANDS: ReadonlySet<string> = new Set([
  'generate',
  'resume',
  'edit',
  'upscale',
  'mcp',
]);

/**
 * The service of generate, edit, upscale, track, resume and cancel: --provider (default today's contract) and
 * --base-url, or the provider's own address when --base-url is not given; --provider demo (for
 * generate, edit, upscale and resume) the built-in demo, which takes no address.
 */
export function serviceChoice(values: Values, command: string): ServiceChoice {
  const typed = values['base-url']?.trim() || null;
  if (isDemoOption(values.provider) && DEMO_SERVICE_COMMANDS.has(command)) {
    if (typed !== null) {
      throw new UsageError(
        "--provider demo runs Pictor's built-in demo service inside the command: it takes no --base-url.",
      );
    }
    return { provider: DEFAULT_PROVIDER, baseUrl: null, baseUrlTyped: false, builtInDemo: true };
  }
  const provider = providerOption(values.provider, command) ?? DEFAULT_PROVIDER;
  return {
    provider,
    baseUrl: typed ?? PROVIDERS[provider].defaultBaseUrl,
    baseUrlTyped: typed !== null,
  };
}

/** A service with an address, for the commands that must reach one. */
export function reachableService(
  values: Values,
  command: string,
  message: string,
): ServiceChoice & { readonly baseUrl: string } {
  const service = serviceChoice(values, command);
  const { baseUrl } = service;
  if (baseUrl === null) throw new UsageError(message);
  return { ...service, baseUrl };
}

/** Where generate's tasks go: the service named, at its address; `demo:` for the demo. */
export function generateService(values: Values): { service: ServiceChoice; target: SubmitTarget } {
  const service = serviceChoice(values, 'generate');
  if (service.builtInDemo) {
    return { service, target: { provider: service.provider, endpoint: DEMO_ENDPOINT } };
  }
  const { provider, baseUrl } = service;
  if (baseUrl === null) {
    throw new UsageError(
      'generate needs --base-url URL (the service address), or --provider ID of a service with its own address. To try Pictor with no key and no service, use --provider demo: its built-in demo service.',
    );
  }
  return { service, target: { provider, endpoint: baseUrl } };
}

/** `pictor demo`'s service: always the built-in demo; another --provider or an address is refused. */
export function demoService(values: Values): { service: ServiceChoice; target: SubmitTarget } {
  if ((values.provider !== undefined && !isDemoOption(values.provider)) || values['base-url']) {
    throw new UsageError(
      "demo always uses Pictor's built-in demo service; for a real one, use generate with its --provider (and --base-url).",
    );
  }
  return generateService({ ...values, provider: DEMO_OPTION });
}

/** list's --provider: a provider's tasks, or the built-in demo's (`demo:`). */
export function listProvider(raw: string | undefined): ServiceId | null {
  return serviceOption(raw, 'list');
}

/** The commands that read the built-in demo's tasks by `--provider demo` (and run no service). */
const DEMO_READERS: ReadonlySet<string> = new Set(['list', 'costs']);

/**
 * --provider's value for a command: `demo` where the command reads the built-in demo's tasks
 * (list, costs), else {@link providerOption}'s.
 */
export function serviceOption(raw: string | undefined, command: string): ServiceId | null {
  return isDemoOption(raw) && DEMO_READERS.has(command)
    ? DEMO_OPTION
    : providerOption(raw, command);
}

/** The service `list --provider` names for `service`: the built-in demo, or its provider. */
export function listedService(service: ServiceChoice): ProviderId | typeof DEMO_OPTION {
  return service.builtInDemo ? DEMO_OPTION : service.provider;
}
