/**
 * The model's own options a submit sends (shared/domain/model-params.ts): the request's `params`
 * its model's schema lists, and the seed asked for under the name the schema gives its seed. An
 * option the schema does not list is never sent (the engine refused it before the task was
 * stored); a model with no schema gets none. The seed's own interface publishes no schema, so it
 * sends none.
 */
import { paramSchemaOf } from '../../../../shared/domain/model-param-schemas';
import { commonParam, type ParamValue } from '../../../../shared/domain/model-params';
import type { ProviderId } from '../../../../shared/domain/providers';
import type { GenerationRequest } from '../../../../shared/service/wire';

export function sentParams(
  provider: ProviderId,
  model: string | undefined,
  request: GenerationRequest,
): Record<string, ParamValue> {
  const schema = paramSchemaOf(provider, model);
  if (!schema) return {};
  const sent: Record<string, ParamValue> = {};
  for (const [name, value] of Object.entries(request.params ?? {})) {
    if (Object.hasOwn(schema.params, name)) sent[name] = value;
  }
  const seedName = commonParam(schema, 'seed');
  if (seedName !== undefined && request.seed !== undefined) sent[seedName] = request.seed;
  return sent;
}
