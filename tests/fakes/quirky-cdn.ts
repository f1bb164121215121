/**
 * The quirky service's image origin: a different port (so a different origin) from the API,
 * real PNGs made with sharp, and the habits of real object stores: signed URLs that expire
 * (403 with an XML body), a redirect hop, a generic content type.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import sharp from 'sharp';
import { answer, logRequest, readBody, type LoggedRequest } from './quirky-log';

/** How the image origin behaves. Every field is optional; the default is a plain, honest CDN. */
export interface QuirkyCdnOptions {
  /** Hand out URLs that answer 302 (relative `Location`) to the real path once. */
  readonly redirect?: boolean;
  /** A URL stops working this many ms after the service first hands it out (then 403). */
  readonly expireAfterMs?: number;
  /** Serve real PNG bytes as `application/octet-stream`. */
  readonly octetStream?: boolean;
  /** Serve an HTML page labelled `image/png` instead of the picture. */
  readonly corrupt?: boolean;
}

interface CdnFile {
  readonly taskId: string;
  readonly png: Buffer;
  readonly expiresAt: number;
}

/** Renders a real PNG of the given size in a colour that differs per image index. */
export async function renderPng(width: number, height: number, index: number): Promise<Buffer> {
  const hue = (index * 97) % 256;
  return sharp({
    create: { width, height, channels: 3, background: { r: hue, g: 255 - hue, b: 128 } },
  })
    .png()
    .toBuffer();
}

const EXPIRED_XML =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code>' +
  '<Message>Request has expired</Message></Error>';

/** The image origin: `publish` stores a PNG and returns its URL; `handle` serves requests. */
export class QuirkyCdn {
  private readonly files = new Map<string, CdnFile>();
  private baseUrl = '';

  constructor(
    private readonly options: QuirkyCdnOptions,
    private readonly log: LoggedRequest[],
  ) {}

  /** Set once the server listens. */
  setBaseUrl(baseUrl: string): void {
    this.baseUrl = baseUrl;
  }

  /** Stores `png` and returns the URL the service hands out for it. */
  publish(taskId: string, png: Buffer): string {
    const token = randomBytes(9).toString('base64url');
    const expiresAt =
      this.options.expireAfterMs === undefined ? Infinity : Date.now() + this.options.expireAfterMs;
    this.files.set(token, { taskId, png, expiresAt });
    const signature = `X-Sig=${randomBytes(6).toString('hex')}&X-Expires=${Math.floor(expiresAt / 1000)}`;
    const path = this.options.redirect ? `/r/${token}` : `/files/${token}/image.png`;
    return `${this.baseUrl}${path}?${signature}`;
  }

  /** The node:http request listener of the image origin. */
  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const entry = logRequest(this.log, 'cdn', request, await readBody(request));
    const url = new URL(entry.path, 'http://cdn.invalid');
    const hop = /^\/r\/([\w-]+)$/.exec(url.pathname);
    const direct = /^\/files\/([\w-]+)\/image\.png$/.exec(url.pathname);
    const token = hop?.[1] ?? direct?.[1];
    const file = token === undefined ? undefined : this.files.get(token);
    if (entry.method !== 'GET' && entry.method !== 'HEAD') {
      answer(response, entry, 405, { Allow: 'GET, HEAD' }, 'method not allowed');
      return;
    }
    if (!file || token === undefined) {
      answer(response, entry, 404, { 'Content-Type': 'text/plain' }, 'no such object');
      return;
    }
    entry.taskId = file.taskId;
    if (Date.now() >= file.expiresAt) {
      answer(response, entry, 403, { 'Content-Type': 'application/xml' }, EXPIRED_XML);
      return;
    }
    if (hop) {
      const location = `/files/${token}/image.png${url.search}`;
      answer(response, entry, 302, { Location: location, 'Content-Type': 'text/plain' }, 'Found');
      return;
    }
    this.serveFile(response, entry, file);
  }

  private serveFile(response: ServerResponse, entry: LoggedRequest, file: CdnFile): void {
    if (this.options.corrupt) {
      const page = '<!doctype html><html><body>Bucket quota exceeded</body></html>';
      answer(response, entry, 200, { 'Content-Type': 'image/png' }, page);
      return;
    }
    const type = this.options.octetStream ? 'application/octet-stream' : 'image/png';
    answer(response, entry, 200, { 'Content-Type': type, 'Cache-Control': 'private' }, file.png);
  }
}
