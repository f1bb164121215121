/**
 * An image's whole triage as Pictor keeps it on disk: the star (pick), rating, reject, tags and
 * boards in their order, and the time of triage, in one `pictorTriage:Triage` element of the
 * image's XMP sidecar (its text the triage as JSON). The standard elements (xmp-triage.ts) say
 * what other tools read and cannot hold a pick, boards, the order of tags or a rating under a
 * reject; this element does, so the sidecar, not `pictor.json`, is where a triage edit is
 * written (gallery.ts `writeTriage`) and where a rebuild reads it back (library/rebuild.ts).
 */
import { z } from 'zod';
import { lazySchema } from '../../../../shared/domain/lazy-schema';
import type { ImageRecord } from '../../../../shared/domain/task-record';
import { triageFields, type ImageTriage } from '../../../../shared/domain/triage';
import { elementText, escapeXml } from './xml-text';

/** The namespace of the element (a name, never fetched): not Pictor's provenance namespace. */
export const OWN_TRIAGE_NAMESPACE =
  'xmlns:pictorTriage="https://pictor.invalid/ns/xmp-triage/1.0/"';
const ELEMENT = 'pictorTriage:Triage';

/** The element's line as {@link ownTriageElement} writes it. */
export const OWN_TRIAGE_LINE = /^ {3}<pictorTriage:Triage>[^<]*<\/pictorTriage:Triage>\n/gm;

const ownTriageSchema = lazySchema(() =>
  z.object({ favourite: z.literal(true).optional(), ...triageFields() }),
);

/** The image's triage fields that are set; `null` when it has none (an untriaged image). */
export function ownTriageOf(image: ImageTriage): ImageTriage | null {
  const { favourite, rating, flag, tags, boards, triagedAt } = image;
  const own: { -readonly [K in keyof ImageTriage]: ImageTriage[K] } = {};
  if (favourite === true) own.favourite = true;
  if (rating !== undefined) own.rating = rating;
  if (flag !== undefined) own.flag = flag;
  if (tags !== undefined && tags.length > 0) own.tags = tags;
  if (boards !== undefined && boards.length > 0) own.boards = boards;
  if (triagedAt !== undefined) own.triagedAt = triagedAt;
  return Object.keys(own).length === 0 ? null : own;
}

/** The element's line (indented as the packets' other elements), or nothing for no triage. */
export function ownTriageElement(own: ImageTriage | null | undefined): string {
  if (!own) return '';
  return `   <${ELEMENT}>${escapeXml(JSON.stringify(own))}</${ELEMENT}>\n`;
}

/**
 * The triage a packet's element holds, checked as a record's triage is (a value the schema does
 * not keep is left out); `null` when the packet has no such element or it is not readable. The
 * packet came from a folder anyone can write.
 */
export function readOwnTriage(packet: string): ImageTriage | null {
  const text = elementText(packet, ELEMENT);
  if (text === undefined) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = ownTriageSchema().safeParse(json);
  return parsed.success ? ownTriageOf(parsed.data) : null;
}

/** `image` with none of its triage: what `pictor.json` holds of a saved image (gallery.ts). */
export function imageWithoutTriage(image: ImageRecord): ImageRecord {
  const { rating: _r, flag: _f, tags: _t, boards: _b, triagedAt: _a, ...rest } = image;
  return { ...rest, favourite: false };
}

/** `image` with exactly the triage `own` (what its XMP sidecar holds), nothing else of it. */
export function withOwnTriage(image: ImageRecord, own: ImageTriage): ImageRecord {
  const { tags, boards, ...rest } = own;
  return {
    ...imageWithoutTriage(image),
    ...rest,
    favourite: own.favourite === true,
    ...(tags === undefined ? {} : { tags: [...tags] }),
    ...(boards === undefined ? {} : { boards: [...boards] }),
  };
}

/** Whether the image carries any triage. */
export const hasOwnTriage = (image: ImageTriage): boolean => ownTriageOf(image) !== null;
