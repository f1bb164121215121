/**
 * An image's triage as other tools read it from XMP: `xmp:Rating` (1–5 stars, −1 for a reject,
 * as Bridge and exiftool read it; unrated and no flag writes none) and `dc:subject` (the tags, an
 * unordered `rdf:Bag`, as Lightroom, digiKam and exiftool's `Subject` read keywords). A pick has
 * no standard XMP field and boards are Pictor's own: neither is written.
 *
 * The same elements go into Pictor's packet (xmp-packet.ts) and, for an image that has no such
 * packet beside it, into a packet of their own ({@link buildTriagePacket}), whose exact layout
 * is what {@link isTriagePacket} recognises: the only sidecar Pictor removes by itself.
 */
import type { ImageTriage } from '../../../../shared/domain/triage';
import { cleanTags, flagOf, ratingOf } from '../../../../shared/domain/triage';
import { escapeXml } from './xml-text';

/** What the XMP says of an image's triage: a rating (−1 to 5, never 0) and its tags. */
export interface XmpTriage {
  readonly rating?: number;
  readonly subjects: readonly string[];
}

/** The namespaces a packet with triage declares (dc and xmp), as attribute lines. */
export const TRIAGE_NAMESPACES = [
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

/** The triage's elements, one per line, indented as the packets' other elements are. */
export function triageElements(triage: XmpTriage | null | undefined): string {
  if (!triage) return '';
  let body = '';
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
  return Buffer.from(xmpEnvelope(TRIAGE_NAMESPACES, triageElements(triage)), 'utf8');
}

/** Pictor's triage elements as {@link triageElements} writes them. */
const TRIAGE_LINES =
  /^ {3}<xmp:Rating>-?\d<\/xmp:Rating>\n|^ {3}<dc:subject>\n {4}<rdf:Bag>\n(?: {5}<rdf:li>[^<]*<\/rdf:li>\n)* {4}<\/rdf:Bag>\n {3}<\/dc:subject>\n/gm;

/** Whether `text` holds triage elements in Pictor's layout. */
export function hasTriageElements(text: string): boolean {
  return new RegExp(TRIAGE_LINES.source, 'm').test(text);
}

/**
 * Whether `text` is a packet {@link buildTriagePacket} wrote, for any triage: nothing else in it,
 * so removing it loses nothing of anyone's.
 */
export function isTriagePacket(text: string): boolean {
  return text.replace(TRIAGE_LINES, '') === xmpEnvelope(TRIAGE_NAMESPACES, '');
}
