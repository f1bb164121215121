/**
 * An image's triage as other tools read it from XMP: `xmp:Rating` (1–5 stars, −1 for a reject,
 * as Bridge and exiftool read it; unrated and no flag writes none) and `dc:subject` (the tags, an
 * unordered `rdf:Bag`, as Lightroom, digiKam and exiftool's `Subject` read keywords). A pick has
 * no standard XMP field and boards are Pictor's own: neither is written.
 *
 * The same elements go into Pictor's packet (xmp-packet.ts) and, for an image that has no such
 * packet beside it, into a packet of their own ({@link buildTriagePacket}), whose exact layout
 * is what {@link isTriagePacket} recognises: the only sidecar Pictor removes by itself. A sidecar
 * also carries the image's whole triage in Pictor's own element (xmp-own-triage.ts), there
 * whenever the image has any triage: a pick or a board alone makes a sidecar too.
 */
import type { ImageTriage } from '../../../../shared/domain/triage';
import { cleanTags, flagOf, ratingOf } from '../../../../shared/domain/triage';
import { escapeXml } from './xml-text';
import {
  OWN_TRIAGE_LINE,
  OWN_TRIAGE_NAMESPACE,
  ownTriageElement,
  ownTriageOf,
} from './xmp-own-triage';

/** What the XMP says of an image's triage: a rating (−1 to 5, never 0) and its tags. */
export interface XmpTriage {
  readonly rating?: number;
  readonly subjects: readonly string[];
  /** The whole triage (a sidecar's, never a file's embedded packet): xmp-own-triage.ts. */
  readonly own?: ImageTriage;
}

/** The namespaces a packet with triage declares (dc and xmp), as attribute lines. */
const TRIAGE_NAMESPACES = [
  'xmlns:dc="http://purl.org/dc/elements/1.1/"',
  'xmlns:xmp="http://ns.adobe.com/xap/1.0/"',
] as const;

/**
 * The image's triage in XMP's terms; `null` when there is nothing to write (unrated, no reject,
 * no tags). Tags are cleaned again (shared/domain/triage.ts): a record read from a folder may
 * hold anything.
 */
export function xmpTriageOf(image: ImageTriage): XmpTriage | null {
  const rating = flagOf(image) === 'reject' ? -1 : ratingOf(image);
  const subjects = cleanTags(image.tags ?? []).tags;
  if (rating === 0 && subjects.length === 0) return null;
  return rating === 0 ? { subjects } : { rating, subjects };
}

/**
 * What an image's XMP sidecar holds of its triage: the standard elements and the whole triage
 * (`own`); `null` when the image has no triage at all.
 */
export function sidecarTriageOf(image: ImageTriage): XmpTriage | null {
  const own = ownTriageOf(image);
  if (!own) return null;
  return { ...(xmpTriageOf(image) ?? { subjects: [] }), own };
}

/** The namespaces a packet holding `triage` declares. */
export function triageNamespaces(triage: XmpTriage | null | undefined): readonly string[] {
  return triage?.own ? [...TRIAGE_NAMESPACES, OWN_TRIAGE_NAMESPACE] : TRIAGE_NAMESPACES;
}

/** The triage's elements, one per line, indented as the packets' other elements are. */
export function triageElements(triage: XmpTriage | null | undefined): string {
  if (!triage) return '';
  let body = ownTriageElement(triage.own);
  if (triage.rating !== undefined) body += `   <xmp:Rating>${String(triage.rating)}</xmp:Rating>\n`;
  if (triage.subjects.length > 0) {
    const items = triage.subjects.map((tag) => `     <rdf:li>${escapeXml(tag)}</rdf:li>\n`);
    body += `   <dc:subject>\n    <rdf:Bag>\n${items.join('')}    </rdf:Bag>\n   </dc:subject>\n`;
  }
  return body;
}

/** A whole XMP packet: one `rdf:Description` declaring `namespaces`, holding `body`'s lines. */
export function xmpEnvelope(namespaces: readonly string[], body: string): string {
  const declared = namespaces.map((namespace) => `    ${namespace}`).join('\n');
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '  <rdf:Description rdf:about=""',
    `${declared}>`,
    `${body}  </rdf:Description>`,
    ' </rdf:RDF>',
    '</x:xmpmeta>',
    '<?xpacket end="r"?>',
  ].join('\n');
}

/** The packet of an XMP sidecar that holds the triage alone, as UTF-8. */
export function buildTriagePacket(triage: XmpTriage): Buffer {
  return Buffer.from(xmpEnvelope(triageNamespaces(triage), triageElements(triage)), 'utf8');
}

/** Pictor's triage elements as {@link triageElements} writes them. */
const TRIAGE_LINES =
  /^ {3}<xmp:Rating>-?\d<\/xmp:Rating>\n|^ {3}<dc:subject>\n {4}<rdf:Bag>\n(?: {5}<rdf:li>[^<]*<\/rdf:li>\n)* {4}<\/rdf:Bag>\n {3}<\/dc:subject>\n/gm;

/** Whether `text` holds triage elements in Pictor's layout. */
export function hasTriageElements(text: string): boolean {
  return (
    new RegExp(TRIAGE_LINES.source, 'm').test(text) ||
    new RegExp(OWN_TRIAGE_LINE.source, 'm').test(text)
  );
}

/** The empty packets {@link buildTriagePacket} wraps triage in: with or without the own element. */
const EMPTY_PACKETS: ReadonlySet<string> = new Set([
  xmpEnvelope(TRIAGE_NAMESPACES, ''),
  xmpEnvelope([...TRIAGE_NAMESPACES, OWN_TRIAGE_NAMESPACE], ''),
]);

/**
 * Whether `text` is a packet {@link buildTriagePacket} wrote, for any triage: nothing else in it,
 * so removing it loses nothing of anyone's.
 */
export function isTriagePacket(text: string): boolean {
  return EMPTY_PACKETS.has(text.replace(TRIAGE_LINES, '').replace(OWN_TRIAGE_LINE, ''));
}
