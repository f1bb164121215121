/**
 * The XMP packet Pictor writes into every image it saves: the prompt (dc:description), the tool
 * and date (xmp:CreatorTool, xmp:CreateDate), IPTC's digital source type for AI-generated media,
 * and Pictor's own fields (pictor:*) from which `rebuild` can make a record again, the model's
 * options (xmp-params.ts), the template the task was made from (xmp-template.ts) and what an
 * edit's result was made from (xmp-lineage.ts) among them.
 *
 * Only Pictor's own layout is read back (one element per field, as written here); any other
 * XMP is not Pictor's and yields nothing.
 */
import type { ParamValues } from '../../../../shared/domain/model-params';
import { elementText, escapeXml, exactCopy, unescapeExact, unescapeXml, xmlSafe } from './xml-text';
import type { TaskTemplate } from '../../../../shared/domain/task-template';
import { templateElements } from './xmp-template';
import { paramsElements } from './xmp-params';
import type { ImageInputs } from '../../../../shared/domain/image-inputs';
import { lineageElements } from './xmp-lineage';
import { triageElements, triageNamespaces, xmpEnvelope, type XmpTriage } from './xmp-triage';

export const DIGITAL_SOURCE_TYPE =
  'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia';
/** Pictor's XMP namespace (a name, never fetched). */
const PICTOR_NS = 'https://pictor.invalid/ns/xmp/1.0/';

/** What an image says about how it was made. */
export interface ImageProvenance {
  readonly prompt: string;
  readonly model?: string;
  readonly size?: string;
  readonly quality?: string;
  /** The seed the images were made with: the service's, else the one asked for. */
  readonly seed?: number;
  /** The model's own options asked for, by their names (the PNG `parameters` text says them). */
  readonly params?: ParamValues;
  /** The service's id of the task, when it has one. */
  readonly taskId?: string;
  /** Pictor's own id of the task. */
  readonly localId: string;
  /** 0-based index of the image in its task. */
  readonly imageIndex: number;
  /** The service's origin (`scheme://host:port`) or `demo:`; never a path, query or key. */
  readonly service: string;
  /** When the task was created, ms since the epoch. */
  readonly createdAt: number;
  readonly appVersion: string;
  /** The user's rating and tags (xmp-triage.ts), when the packet carries them. */
  readonly triage?: XmpTriage | null;
  /** The template the task was made from (xmp-template.ts), when it was. */
  readonly template?: TaskTemplate | null;
  /** What the image was made from (xmp-lineage.ts), when it is an edit's result. */
  readonly inputs?: ImageInputs | null;
}

/** Fields written as `pictor:<Name>` elements, in this order. */
const FIELDS = [
  ['Model', 'model'],
  ['Size', 'size'],
  ['Quality', 'quality'],
  ['TaskId', 'taskId'],
  ['LocalId', 'localId'],
  ['Service', 'service'],
  ['AppVersion', 'appVersion'],
] as const;

function element(name: string, value: string): string {
  return `   <${name}>${escapeXml(value)}</${name}>\n`;
}

/** The packet for `provenance`, with the prompt cut to `promptChars` code units when given. */
function packet(provenance: ImageProvenance, promptChars?: number): string {
  let prompt = provenance.prompt;
  if (promptChars !== undefined && promptChars < prompt.length) {
    // Never half of a surrogate pair.
    const cut = /[\uD800-\uDBFF]/.test(prompt[promptChars - 1] ?? '')
      ? promptChars - 1
      : promptChars;
    prompt = prompt.slice(0, Math.max(0, cut));
  }
  const readable = xmlSafe(prompt);
  let body = element('Iptc4xmpExt:DigitalSourceType', DIGITAL_SOURCE_TYPE);
  body += element('xmp:CreatorTool', `Pictor ${provenance.appVersion}`);
  body += element('xmp:CreateDate', new Date(provenance.createdAt).toISOString());
  body += `   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(readable)}</rdf:li></rdf:Alt></dc:description>\n`;
  const exact = exactCopy(prompt);
  if (exact !== undefined) body += element('pictor:PromptExact', exact);
  if (prompt.length < provenance.prompt.length) body += element('pictor:PromptTruncated', 'True');
  for (const [name, key] of FIELDS) {
    const value = provenance[key];
    if (value !== undefined) body += element(`pictor:${name}`, value);
  }
  body += element('pictor:ImageIndex', String(provenance.imageIndex));
  if (provenance.seed !== undefined) body += element('pictor:Seed', String(provenance.seed));
  body += paramsElements(provenance.params);
  body += lineageElements(provenance.inputs);
  body += templateElements(provenance.template);
  body += triageElements(provenance.triage);
  return xmpEnvelope(
    [
      ...triageNamespaces(provenance.triage),
      'xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"',
      `xmlns:pictor="${PICTOR_NS}"`,
    ],
    body,
  );
}

/**
 * The packet as UTF-8. With `maxBytes`, a packet that would be bigger loses its template first,
 * then the model's options (the record keeps both; a cut prompt would make the task another),
 * then has its prompt shortened
 * (and marked pictor:PromptTruncated) until it fits; `null` when even an empty prompt does not.
 */
export function buildXmpPacket(provenance: ImageProvenance, maxBytes = Infinity): Buffer | null {
  const full = Buffer.from(packet(provenance), 'utf8');
  if (full.length <= maxBytes) return full;
  if (provenance.template) return buildXmpPacket({ ...provenance, template: null }, maxBytes);
  if (provenance.params) {
    const { params: _dropped, ...rest } = provenance;
    return buildXmpPacket(rest, maxBytes);
  }
  let low = 0;
  let high = provenance.prompt.length - 1;
  let best: Buffer | null = null;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const attempt = Buffer.from(packet(provenance, middle), 'utf8');
    if (attempt.length <= maxBytes) {
      best = attempt;
      low = middle + 1;
    } else high = middle - 1;
  }
  return best;
}

/** The fields of a packet in Pictor's layout, as untrusted strings (see read.ts for checks). */
export function parseXmpPacket(xmp: string): Record<string, string> | null {
  if (!xmp.includes(`xmlns:pictor="${PICTOR_NS}"`)) return null;
  const out: Record<string, string> = {};
  const description =
    /<dc:description><rdf:Alt><rdf:li xml:lang="x-default">([^<]*)<\/rdf:li>/.exec(xmp);
  const readable = description ? unescapeXml(description[1] ?? '') : null;
  const exact = elementText(xmp, 'pictor:PromptExact');
  const prompt = exact === undefined ? readable : unescapeExact(exact);
  if (prompt !== null) out.prompt = prompt;
  const read = [...FIELDS, ['ImageIndex', 'imageIndex'], ['Seed', 'seed']] as const;
  for (const [name, key] of read) {
    const value = elementText(xmp, `pictor:${name}`);
    if (value !== undefined) out[key] = value;
  }
  const date = elementText(xmp, 'xmp:CreateDate');
  if (date !== undefined) out.createDate = date;
  if (elementText(xmp, 'pictor:PromptTruncated') === 'True') out.promptTruncated = 'True';
  return out;
}
