/**
 * `pictor models show MODEL [--provider ID] [--json]`: the model's own options (the schema fetched
 * or given for it, models-schemas.ts, else its shipped one, shared/domain/model-param-schemas.ts),
 * common ones first, each with its type, its range or choices and its default; how generate sets them (`--param key=value`, or the shortcuts).
 */
import { SHIPPED_PARAM_SCHEMAS } from '../../shared/domain/model-param-schemas';
import {
  orderedParams,
  type CommonParam,
  type ParamSchema,
  type ParamSpec,
} from '../../shared/domain/model-params';
import { PROVIDER_IDS, type ProviderId } from '../../shared/domain/providers';
import { UsageError } from '../core/command-line';
import { EXIT } from './cli-report';
import { jsonSafe, terminalLines } from './terminal-text';

/** generate's shortcut for an option with this hint. */
const SHORTCUT: Partial<Record<CommonParam, string>> = {
  aspect: '--aspect',
  resolution: '--resolution',
  negative: '--negative',
  seed: '--seed',
};

/** The schema of `model`: on `provider`, or on the one provider that has it (kept or shipped). */
function found(
  model: string,
  provider: ProviderId | null,
  kept: KeptSchemas,
): { provider: ProviderId; schema: ParamSchema } {
  const providers = (provider === null ? PROVIDER_IDS : [provider]).filter(
    (id) => kept(id, model) !== undefined || Object.hasOwn(SHIPPED_PARAM_SCHEMAS[id], model),
  );
  const [first, second] = providers;
  if (first === undefined) {
    throw new UsageError(
      'Pictor knows no options of that model on that service: pictor models lists the models it knows.',
    );
  }
  if (second !== undefined)
    throw new UsageError(
      `Several services list that model: add --provider (${providers.join(', ')}).`,
    );
  const schema = kept(first, model) ?? (SHIPPED_PARAM_SCHEMAS[first][model] as ParamSchema);
  return { provider: first, schema };
}

function kindText(spec: ParamSpec): string {
  switch (spec.type) {
    case 'enum':
      return `one of ${spec.values.join(', ')}`;
    case 'boolean':
      return 'true or false';
    case 'string':
      return `text, at most ${spec.maxLength} characters`;
    default:
      return `${spec.type === 'integer' ? 'whole number' : 'number'} from ${spec.min} to ${spec.max}${spec.step === undefined ? '' : `, step ${spec.step}`}`;
  }
}

function lineOf(name: string, spec: ParamSpec): string {
  const shortcut = spec.common === undefined ? undefined : SHORTCUT[spec.common];
  const fallback = spec.default === undefined ? '' : `; default ${String(spec.default)}`;
  const how = shortcut ? `  (${shortcut})` : '';
  return `  ${name}: ${kindText(spec)}${fallback}${how}`;
}

/** The options fetched or given for a model (the library's book), over the shipped ones. */
export type KeptSchemas = (provider: ProviderId, model: string) => ParamSchema | undefined;

/** Prints the options of `model`. */
export function showModel(
  asked: { readonly model: string; readonly provider: ProviderId | null; readonly json: boolean },
  stdout: (text: string) => void,
  kept: KeptSchemas = () => undefined,
): number {
  const { model, json } = asked;
  const { provider: on, schema } = found(model, asked.provider, kept);
  if (json) {
    stdout(`${jsonSafe(JSON.stringify({ provider: on, model, params: schema.params }))}\n`);
    return EXIT.ok;
  }
  // A kept schema's texts are the service's or a file's: each line is made safe for the terminal.
  const lines = orderedParams(schema).map((name) => lineOf(name, schema.params[name] as ParamSpec));
  stdout(terminalLines([`${on} ${model}: set with --param key=value`, ...lines]));
  return EXIT.ok;
}
