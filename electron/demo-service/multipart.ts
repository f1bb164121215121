/**
 * A small multipart/form-data reader for the demo's upload endpoints (Replicate's `POST /v1/files`,
 * DashScope's form upload to its storage). Bounded by the body it is given: it only slices it.
 */

/** One part of a form. */
export interface FormPart {
  readonly name: string;
  readonly fileName?: string;
  readonly contentType?: string;
  readonly value: Buffer;
}

const MAX_PARTS = 64;

/** The boundary of a multipart/form-data Content-Type, or undefined. */
function boundaryOf(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return undefined;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

function partOf(raw: Buffer): FormPart | undefined {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) return undefined;
  const head = raw.toString('latin1', 0, split);
  const disposition = /^content-disposition:\s*form-data(.*)$/im.exec(head)?.[1] ?? '';
  const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
  if (name === undefined) return undefined;
  const fileName = /;\s*filename="([^"]*)"/i.exec(disposition)?.[1];
  const contentType = /^content-type:\s*(\S+)\s*$/im.exec(head)?.[1];
  return {
    name,
    value: raw.subarray(split + 4),
    ...(fileName === undefined ? {} : { fileName }),
    ...(contentType === undefined ? {} : { contentType }),
  };
}

/** The parts of a multipart/form-data body, in order; undefined when it is not one. */
export function readForm(contentType: string | undefined, body: Buffer): FormPart[] | undefined {
  const boundary = boundaryOf(contentType);
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  if (at < 0) return undefined;
  const parts: FormPart[] = [];
  while (parts.length < MAX_PARTS) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString('latin1') === '--') return parts;
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), start);
    if (next < 0) return undefined;
    const part = partOf(body.subarray(start + 2, next));
    if (!part) return undefined;
    parts.push(part);
    at = next + 2;
  }
  return undefined;
}
