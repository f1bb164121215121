/**
 * What an edit's result was made from (`request.inputs`, shared/domain/image-inputs.ts) in
 * Pictor's XMP, so the lineage holds when the task's pictor.json is gone (`rebuild` reads it
 * back, metadata/recover.ts) and any tool that reads XMP sees it. Plain `pictor:*` elements:
 * `InputOperation`, `ParentLocalId` and `ParentImageIndex` (the library image it was made from,
 * absent for a file), `InputFactor`, `InputSafety`, `ExpandTop`/`Right`/`Bottom`/`Left`, and each
 * input image as a structure of `Sha256`, `Mime`, `Width`, `Height`, `Bytes` (`InputSource`,
 * `InputMask`, `InputMaskAlpha`, and the references as an ordered `rdf:Seq` in
 * `InputReferences`). Nothing but digests and sizes: never a path or an address. How the inputs
 * travelled (`route`) is not provenance and is not written.
 *
 * Read back from files anyone could write: only this exact layout, then the inputs schema; so
 * what comes back is never more than the sidecar would carry, and anything else reads as inputs
 * dropped, never as a reason to refuse the rest of the packet.
 */
import {
  MAX_REFERENCES,
  imageInputsSchema,
  type ImageInputs,
  type InputImage,
} from '../../../../shared/domain/image-inputs';
import { elementText, escapeXml } from './xml-text';

const line = (indent: number, name: string, text: string): string =>
  `${' '.repeat(indent)}<${name}>${escapeXml(text)}</${name}>\n`;

/** One input image's fields, inside a structure opened at `indent`. */
function imageFields(image: InputImage, indent: number): string {
  return [
    line(indent, 'pictor:Sha256', image.sha256),
    line(indent, 'pictor:Mime', image.mime),
    line(indent, 'pictor:Width', String(image.width)),
    line(indent, 'pictor:Height', String(image.height)),
    line(indent, 'pictor:Bytes', String(image.bytes)),
  ].join('');
}

function imageElement(name: string, image: InputImage | undefined): string {
  if (!image) return '';
  return `   <${name} rdf:parseType="Resource">\n${imageFields(image, 4)}   </${name}>\n`;
}

function references(images: readonly InputImage[] | undefined): string {
  if (!images || images.length === 0) return '';
  const items = images.map(
    (image) => `     <rdf:li rdf:parseType="Resource">\n${imageFields(image, 6)}     </rdf:li>\n`,
  );
  return `   <pictor:InputReferences>\n    <rdf:Seq>\n${items.join('')}    </rdf:Seq>\n   </pictor:InputReferences>\n`;
}

const optional = (name: string, value: number | undefined) =>
  value === undefined ? '' : line(3, name, String(value));

/** The inputs' elements, indented as the packet's others are; '' for a task without inputs. */
export function lineageElements(inputs: ImageInputs | null | undefined): string {
  if (!inputs) return '';
  const { parent, expand } = inputs;
  return [
    line(3, 'pictor:InputOperation', inputs.operation),
    parent ? line(3, 'pictor:ParentLocalId', parent.localId) : '',
    parent ? line(3, 'pictor:ParentImageIndex', String(parent.index)) : '',
    optional('pictor:InputFactor', inputs.factor),
    optional('pictor:InputSafety', inputs.safety),
    optional('pictor:ExpandTop', expand?.top),
    optional('pictor:ExpandRight', expand?.right),
    optional('pictor:ExpandBottom', expand?.bottom),
    optional('pictor:ExpandLeft', expand?.left),
    imageElement('pictor:InputSource', inputs.source),
    imageElement('pictor:InputMask', inputs.mask),
    imageElement('pictor:InputMaskAlpha', inputs.maskAlpha),
    references(inputs.references),
  ].join('');
}

/** One image's fields as {@link imageFields} writes them, at `indent` spaces. */
function fieldsPattern(indent: number): string {
  const at = ` {${indent}}`;
  return [
    `${at}<pictor:Sha256>([0-9a-f]{64})</pictor:Sha256>\\n`,
    `${at}<pictor:Mime>(image/(?:png|jpeg|webp))</pictor:Mime>\\n`,
    `${at}<pictor:Width>(\\d{1,5})</pictor:Width>\\n`,
    `${at}<pictor:Height>(\\d{1,5})</pictor:Height>\\n`,
    `${at}<pictor:Bytes>(\\d{1,9})</pictor:Bytes>\\n`,
  ].join('');
}

const imageOf = (match: RegExpExecArray | null) =>
  match
    ? {
        sha256: match[1],
        mime: match[2],
        width: Number(match[3]),
        height: Number(match[4]),
        bytes: Number(match[5]),
      }
    : undefined;

/** The structure `name` in Pictor's layout; undefined when absent, null when it is not whole. */
function imageIn(xmp: string, name: string): object | null | undefined {
  if (!xmp.includes(`<${name} `)) return undefined;
  const pattern = new RegExp(
    ` {3}<${name} rdf:parseType="Resource">\\n${fieldsPattern(4)} {3}</${name}>\\n`,
  );
  return imageOf(pattern.exec(xmp)) ?? null;
}

const REFERENCES =
  /<pictor:InputReferences>\n {4}<rdf:Seq>\n([^]*?) {4}<\/rdf:Seq>\n {3}<\/pictor:InputReferences>\n/;
const REFERENCE = new RegExp(
  ` {5}<rdf:li rdf:parseType="Resource">\\n${fieldsPattern(6)} {5}</rdf:li>\\n`,
  'y',
);

/** The references' Seq, in order; undefined when absent, null when it is not Pictor's layout. */
function referencesIn(xmp: string): object[] | null | undefined {
  if (!xmp.includes('<pictor:InputReferences>')) return undefined;
  const seq = REFERENCES.exec(xmp)?.[1];
  if (seq === undefined) return null;
  const found: object[] = [];
  REFERENCE.lastIndex = 0;
  while (REFERENCE.lastIndex < seq.length) {
    const item = imageOf(REFERENCE.exec(seq));
    if (!item || found.length >= MAX_REFERENCES) return null;
    found.push(item);
  }
  return found;
}

/** A whole number as written, else the text (for the schema to refuse); undefined when absent. */
function numberIn(xmp: string, name: string): number | string | undefined {
  const text = elementText(xmp, name);
  return text !== undefined && /^\d{1,5}$/.test(text) ? Number(text) : text;
}

/** The expansion, when any of its sides is written. */
function expandIn(xmp: string): object | undefined {
  const sides = ['Top', 'Right', 'Bottom', 'Left'].map((side) =>
    numberIn(xmp, `pictor:Expand${side}`),
  );
  if (sides.every((side) => side === undefined)) return undefined;
  const [top, right, bottom, left] = sides;
  return { top, right, bottom, left };
}

/** Leaves out the keys whose value is undefined (the schema's optional fields). */
const defined = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

/**
 * The inputs in a packet of Pictor's layout: `null` when it names none, `dropped` when what it
 * names is damaged or breaks the inputs schema (the rest of the packet holds).
 */
export function readXmpLineage(xmp: string): { inputs: ImageInputs } | 'dropped' | null {
  const operation = elementText(xmp, 'pictor:InputOperation');
  if (operation === undefined) return null;
  const parentId = elementText(xmp, 'pictor:ParentLocalId');
  const parentIndex = numberIn(xmp, 'pictor:ParentImageIndex');
  const parts = {
    source: imageIn(xmp, 'pictor:InputSource'),
    mask: imageIn(xmp, 'pictor:InputMask'),
    maskAlpha: imageIn(xmp, 'pictor:InputMaskAlpha'),
    references: referencesIn(xmp),
  };
  if (Object.values(parts).some((part) => part === null)) return 'dropped';
  const parsed = imageInputsSchema().safeParse(
    defined({
      operation,
      ...parts,
      factor: numberIn(xmp, 'pictor:InputFactor'),
      safety: numberIn(xmp, 'pictor:InputSafety'),
      expand: expandIn(xmp),
      parent:
        parentId === undefined && parentIndex === undefined
          ? undefined
          : { localId: parentId, index: parentIndex },
    }),
  );
  return parsed.success ? { inputs: parsed.data } : 'dropped';
}
