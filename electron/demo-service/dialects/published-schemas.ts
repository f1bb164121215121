/**
 * The input schemas the demo publishes per model, in each service's own form, so a client reads
 * them over real HTTP: fal's per-model OpenAPI (`GET /api/openapi/queue/openapi.json?endpoint_id=
 * MODEL`, public: no key) and Replicate's model (`GET /v1/models/OWNER/NAME`, its
 * `latest_version.openapi_schema`, Cog's way: each choice a `$ref` under `allOf`, the prompt and
 * the options under `components.schemas.Input`). Each is built from the model's shipped schema
 * plus one option Pictor does not ship (`acceleration`, as fal's FLUX models publish it), so a
 * test tells a fetched schema from the shipped one. A hostile variant is a fault rule on the
 * `schema` route (faults.ts).
 */
import type { ParamSchema, ParamSpec } from '../../../shared/domain/model-params';
import { SHIPPED_PARAM_SCHEMAS } from '../../../shared/domain/model-param-schemas';
import { jsonReply, type Reply } from '../http-reply';

/** The option every published schema adds to the shipped ones. */
const EXTRA: Readonly<Record<string, unknown>> = {
  type: 'string',
  enum: ['none', 'regular', 'high'],
  default: 'none',
  title: 'Acceleration',
};

function propertyOf(spec: ParamSpec): Record<string, unknown> {
  const title = spec.title === undefined ? {} : { title: spec.title };
  const fallback = spec.default === undefined ? {} : { default: spec.default };
  switch (spec.type) {
    case 'enum':
      return { enum: spec.values, ...fallback, ...title };
    case 'boolean':
      return { type: 'boolean', ...fallback, ...title };
    case 'string':
      return { type: 'string', maxLength: spec.maxLength, ...fallback, ...title };
    default:
      return {
        type: spec.type,
        minimum: spec.min,
        maximum: spec.max,
        ...(spec.step === undefined ? {} : { multipleOf: spec.step }),
        ...fallback,
        ...title,
      };
  }
}

function inputProperties(schema: ParamSchema): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    prompt: { type: 'string', title: 'Prompt' },
  };
  for (const [name, spec] of Object.entries(schema.params)) properties[name] = propertyOf(spec);
  properties['acceleration'] = EXTRA;
  return properties;
}

/** fal's OpenAPI of `model`, or its 404. */
export function falPublishedSchema(model: string | null): Reply {
  const schema = model === null ? undefined : SHIPPED_PARAM_SCHEMAS.fal[model];
  if (model === null || schema === undefined) {
    return jsonReply(404, { detail: `Endpoint ${model ?? ''} not found` });
  }
  const body = { $ref: '#/components/schemas/Input' };
  return jsonReply(200, {
    openapi: '3.0.4',
    info: { title: 'Queue OpenAPI for ' + model, version: '1.0.0' },
    paths: {
      [`/${model}/requests/{request_id}/status`]: { get: {} },
      [`/${model}`]: {
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: body } } },
        },
      },
    },
    components: {
      schemas: {
        Input: { type: 'object', properties: inputProperties(schema), required: ['prompt'] },
      },
    },
  });
}

/** Cog's form: each choice its own schema, reached through `allOf: [{$ref}]`. */
function cogInput(schema: ParamSchema): { input: unknown; choices: Record<string, unknown> } {
  const properties = inputProperties(schema);
  const choices: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const { enum: values, default: fallback, title } = property as Record<string, unknown>;
    if (values === undefined) continue;
    choices[name] = { enum: values, title: name, description: 'An enumeration.' };
    properties[name] = {
      allOf: [{ $ref: `#/components/schemas/${name}` }],
      ...(fallback === undefined ? {} : { default: fallback }),
      ...(title === undefined ? {} : { title }),
    };
  }
  return { input: { type: 'object', title: 'Input', properties, required: ['prompt'] }, choices };
}

/** Replicate's model `owner/name` with its latest version's schema, or its 404. */
export function replicatePublishedModel(owner: string, name: string): Reply {
  const schema = SHIPPED_PARAM_SCHEMAS.replicate[`${owner}/${name}`];
  if (schema === undefined) {
    return jsonReply(404, {
      title: 'Not found',
      detail: 'The requested resource could not be found.',
    });
  }
  const { input, choices } = cogInput(schema);
  return jsonReply(200, {
    url: `https://replicate.com/${owner}/${name}`,
    owner,
    name,
    visibility: 'public',
    latest_version: {
      id: 'c0ffee'.padEnd(64, '0'),
      openapi_schema: {
        openapi: '3.0.2',
        info: { title: 'Cog', version: '0.1.0' },
        components: { schemas: { Input: input, ...choices } },
      },
    },
  });
}
