/**
 * The template a task was made from (TaskRecord.template, shared/domain/task-template.ts) in
 * Pictor's XMP, so `rebuild` can give "Run again with…" back to a task that lost its sidecar.
 * Plain `pictor:Template*` elements other tools read as they are (exiftool: `TemplateId`,
 * `TemplateName`, `TemplateVersion`, `TemplateMode`, `TemplateSeed`), and the values as an
 * unordered `rdf:Bag` (a map has no order) of `Name`/`Value` structures, which exiftool reads as
 * `TemplateValues` (with `-struct`) or as the lists `TemplateValuesName`/`TemplateValuesValue`.
 * The resolved prompt is the packet's own `dc:description`.
 *
 * A value XML cannot hold exactly (a control character, a lone surrogate) is written readable,
 * with U+FFFD, plus `ValueExact` in `\uXXXX` form, as the prompt has `PromptExact` (xml-text.ts).
 * The elements are written only while they take at most {@link MAX_TEMPLATE_XMP_BYTES}: with the
 * longest prompt escaped twice, a packet stays under the XMP sidecar's cap (xmp-sidecar.ts). A
 * template past it, and one that does not fit a JPEG's segment (xmp-packet.ts), stays in the
 * task's pictor.json alone.
 *
 * Read back from files anyone could write: only this exact layout, at most
 * {@link MAX_TEMPLATE_RUN_VALUES} values, then the task-template schema; anything else reads as a
 * template dropped, never as a reason to refuse the rest of the packet.
 */
import {
  MAX_TEMPLATE_RUN_VALUES,
  taskTemplateSchema,
  type TaskTemplate,
} from '../../../../shared/domain/task-template';
import { elementText, escapeXml, exactCopy, unescapeExact, unescapeXml } from './xml-text';

/** The template's elements, in UTF-8 bytes, past which they are not written. */
export const MAX_TEMPLATE_XMP_BYTES = 128 * 1024;

const line = (indent: number, name: string, text: string): string =>
  `${' '.repeat(indent)}<${name}>${escapeXml(text)}</${name}>\n`;

function valueItem(name: string, value: string, type?: string): string {
  const copy = exactCopy(value);
  const exact = copy === undefined ? '' : line(6, 'pictor:ValueExact', copy);
  return [
    '     <rdf:li rdf:parseType="Resource">\n',
    line(6, 'pictor:Name', name),
    type === undefined ? '' : line(6, 'pictor:Type', type),
    line(6, 'pictor:Value', value),
    exact,
    '     </rdf:li>\n',
  ].join('');
}

/** One Bag item: a name, its value as text, and its type where the Bag says types. */
export interface BagItem {
  readonly name: string;
  readonly value: string;
  readonly type?: string;
}

/** `<container>` holding an unordered `rdf:Bag` of `items`, as the packet's elements indent. */
export function bagElements(container: string, items: readonly BagItem[]): string {
  return [
    `   <${container}>\n    <rdf:Bag>\n`,
    ...items.map((item) => valueItem(item.name, item.value, item.type)),
    `    </rdf:Bag>\n   </${container}>\n`,
  ].join('');
}

/** The template's elements, indented as the packet's others are; '' for none or past the cap. */
export function templateElements(template: TaskTemplate | null | undefined): string {
  if (!template) return '';
  const values = Object.entries(template.values).map(([name, value]) => ({ name, value }));
  const body = [
    line(3, 'pictor:TemplateId', template.id),
    line(3, 'pictor:TemplateName', template.name),
    line(3, 'pictor:TemplateVersion', String(template.version)),
    line(3, 'pictor:TemplateMode', template.mode),
    template.seed === undefined ? '' : line(3, 'pictor:TemplateSeed', String(template.seed)),
    bagElements('pictor:TemplateValues', values),
  ].join('');
  return Buffer.byteLength(body, 'utf8') <= MAX_TEMPLATE_XMP_BYTES ? body : '';
}

/**
 * The Bag in `container` as {@link bagElements} writes it, to the last close of its kind (so a Bag
 * closed early and opened again fails the walk of its items, {@link ITEM}, rather than hiding it).
 * `container` is one of Pictor's own names, never text from a file.
 */
const bagOf = (container: string) =>
  new RegExp(`<${container}>\\n {4}<rdf:Bag>\\n([^]*) {4}</rdf:Bag>\\n {3}</${container}>\\n`);
/** One item, as Pictor writes it: its text never holds a raw `<` or `>` (escapeXml). */
const ITEM =
  / {5}<rdf:li rdf:parseType="Resource">\n {6}<pictor:Name>([^<>]*)<\/pictor:Name>\n(?: {6}<pictor:Type>([^<>]*)<\/pictor:Type>\n)? {6}<pictor:Value>([^<>]*)<\/pictor:Value>\n(?: {6}<pictor:ValueExact>([^<>]*)<\/pictor:ValueExact>\n)? {5}<\/rdf:li>\n/y;

/** One item's value: the exact copy when there is one, else the readable text; null when bad. */
function itemValue(readable: string, exact: string | undefined): string | null {
  if (exact === undefined) return unescapeXml(readable);
  const unescaped = unescapeXml(exact);
  return unescaped === null ? null : unescapeExact(unescaped);
}

/**
 * The items of `xmp`'s Bag in `container`; null when the Bag is missing, holds anything but items
 * in Pictor's layout, names one twice or holds more than `max` (the walk stops there).
 */
export function bagIn(xmp: string, container: string, max: number): BagItem[] | null {
  const bag = bagOf(container).exec(xmp)?.[1];
  if (bag === undefined) return null;
  const items: BagItem[] = [];
  const names = new Set<string>();
  ITEM.lastIndex = 0;
  while (ITEM.lastIndex < bag.length) {
    const item = ITEM.exec(bag);
    if (!item || items.length >= max) return null;
    const name = unescapeXml(item[1] ?? '');
    const type = item[2] === undefined ? undefined : unescapeXml(item[2]);
    const value = itemValue(item[3] ?? '', item[4]);
    if (name === null || type === null || value === null || names.has(name)) return null;
    names.add(name);
    items.push(type === undefined ? { name, value } : { name, value, type });
  }
  return items;
}

/** The template's values by name; null when its Bag is not read whole or gives an item a type. */
function valuesIn(xmp: string): Record<string, string> | null {
  const items = bagIn(xmp, 'pictor:TemplateValues', MAX_TEMPLATE_RUN_VALUES);
  if (items === null || items.some((item) => item.type !== undefined)) return null;
  // An own `__proto__` key stays one here, for the schema to refuse (a plain object drops it).
  return Object.fromEntries(items.map((item) => [item.name, item.value]));
}

/** A number as {@link templateElements} writes one, else the text (for the schema to refuse). */
function numberIn(text: string | undefined): number | string | undefined {
  return text !== undefined && /^\d{1,16}$/.test(text) ? Number(text) : text;
}

/**
 * The template in a packet of Pictor's layout: `null` when it names none, `dropped` when it names
 * one that is damaged or breaks the task-template schema's bounds (the rest of the packet holds).
 */
export function readXmpTemplate(xmp: string): { template: TaskTemplate } | 'dropped' | null {
  if (!xmp.includes('<pictor:Template')) return null;
  const seed = numberIn(elementText(xmp, 'pictor:TemplateSeed'));
  const parsed = taskTemplateSchema().safeParse({
    id: elementText(xmp, 'pictor:TemplateId'),
    name: elementText(xmp, 'pictor:TemplateName'),
    version: numberIn(elementText(xmp, 'pictor:TemplateVersion')),
    values: valuesIn(xmp),
    mode: elementText(xmp, 'pictor:TemplateMode'),
    ...(seed === undefined ? {} : { seed }),
  });
  return parsed.success ? { template: parsed.data } : 'dropped';
}
