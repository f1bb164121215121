/**
 * What an image says about itself, made from its task record: nothing secret goes in. The
 * service is named by its origin alone (scheme, host, port): a base URL's user name, password,
 * path and query can carry a key or a token, and the image may be shared anywhere.
 */
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { isDemoEndpoint } from '../../../../shared/domain/submit-target';
import type { ImageProvenance } from './xmp-packet';

/**
 * `scheme://host[:port]` of an http(s) endpoint, the demo's own (`demo:`, `demo:fal`, …) for the
 * demo, else `undefined`.
 */
export function serviceOriginOf(endpoint: string): string | undefined {
  if (isDemoEndpoint(endpoint)) return endpoint;
  if (!URL.canParse(endpoint)) return undefined;
  const url = new URL(endpoint);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // `origin` has no user name, password, path, query or fragment.
  return url.origin;
}

/**
 * The model the service said it used, when the record keeps one, else the one asked for. The
 * field is read by name so a record from before it existed (or without it) still works.
 */
function modelOf(record: TaskRecord): string | undefined {
  const reported = (record as { readonly reportedModel?: unknown }).reportedModel;
  if (typeof reported === 'string' && reported.trim() !== '') return reported;
  return record.request.model;
}

export function provenanceOf(
  record: TaskRecord,
  index: number,
  appVersion: string,
): ImageProvenance {
  const { prompt, size, quality, params } = record.request;
  const model = modelOf(record);
  const seed = record.seed ?? record.request.seed;
  return {
    prompt,
    ...(model === undefined ? {} : { model }),
    ...(seed === undefined ? {} : { seed }),
    ...(params === undefined || Object.keys(params).length === 0 ? {} : { params }),
    ...(size === undefined ? {} : { size }),
    ...(quality === undefined ? {} : { quality }),
    ...(record.taskId === null ? {} : { taskId: record.taskId }),
    localId: record.localId,
    imageIndex: index,
    service: serviceOriginOf(record.endpoint) ?? 'unknown',
    createdAt: record.createdAt,
    appVersion,
    // Its values are the user's own, as the prompt is: no key or address goes in them.
    ...(record.template === undefined ? {} : { template: record.template }),
    // Digests and sizes of the inputs and the parent's ids: no path, no address.
    ...(record.request.inputs === undefined ? {} : { inputs: record.request.inputs }),
  };
}

/** One line of `Name: value` pairs after the prompt, as image tools show a PNG's `parameters`. */
export function summaryText(provenance: ImageProvenance): string {
  const pairs: Array<[string, string | undefined]> = [
    ['Model', provenance.model],
    ['Size', provenance.size],
    ['Quality', provenance.quality],
    ['Seed', provenance.seed === undefined ? undefined : String(provenance.seed)],
    // The model's options by their own names; text quoted, so a comma in it splits no pair.
    ...Object.entries(provenance.params ?? {}).map(([name, value]): [string, string] => [
      name,
      typeof value === 'string' ? JSON.stringify(value) : String(value),
    ]),
    ['Task', provenance.taskId],
    ['Service', provenance.service],
    ['Created', new Date(provenance.createdAt).toISOString()],
    ['Generator', `Pictor ${provenance.appVersion}`],
  ];
  const settings = pairs
    .filter((pair): pair is [string, string] => pair[1] !== undefined)
    .map(([name, value]) => `${name}: ${value}`)
    .join(', ');
  // NUL is not allowed in PNG text (a lone surrogate becomes U+FFFD when encoded as UTF-8).
  return `${provenance.prompt}\n${settings}`.replace(/\0/g, '\uFFFD');
}
