import sharp from 'sharp';
import { hashParts, seededRandom } from './prng';

/** What an image looks like: the same input always gives the same pixels. */
export interface ImageSpec {
  prompt: string;
  width: number;
  height: number;
  /** Position of the image in its task, so a task's images differ from one another. */
  index: number;
  seed: number;
}

const CACHE_SIZE = 32;
const MAX_LINES = 5;

/**
 * Text drawn into SVG: characters XML forbids are dropped, markup characters escaped. (Lone
 * surrogates need nothing: Buffer.from turns them into U+FFFD.)
 */
export function escapeSvgText(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/** Splits the prompt into at most {@link MAX_LINES} lines of about `width` characters. */
export function wrapText(text: string, width: number): string[] {
  const words = text
    .trim()
    .split(/\s+/)
    .flatMap((word) => word.match(new RegExp(`.{1,${width}}`, 'gsu')) ?? []);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  if (lines.length <= MAX_LINES) return lines;
  const kept = lines.slice(0, MAX_LINES - 1);
  kept.push(`${(lines[MAX_LINES - 1] ?? '').slice(0, width - 1)}…`);
  return kept;
}

function colour(random: () => number, lightness: number): string {
  return `hsl(${Math.floor(random() * 360)}, ${55 + Math.floor(random() * 35)}%, ${lightness}%)`;
}

function shapes(random: () => number, width: number, height: number): string {
  const count = 3 + Math.floor(random() * 4);
  const parts: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const x = Math.round(random() * width);
    const y = Math.round(random() * height);
    const size = Math.round((0.1 + random() * 0.35) * Math.min(width, height));
    const fill = colour(random, 35 + Math.floor(random() * 40));
    const opacity = (0.35 + random() * 0.5).toFixed(2);
    if (random() < 0.5) {
      parts.push(
        `<circle cx="${x}" cy="${y}" r="${size}" fill="${fill}" fill-opacity="${opacity}"/>`,
      );
    } else {
      const angle = Math.round(random() * 90);
      parts.push(
        `<rect x="${x - size}" y="${y - size / 2}" width="${size * 2}" height="${size}" fill="${fill}" ` +
          `fill-opacity="${opacity}" transform="rotate(${angle} ${x} ${y})"/>`,
      );
    }
  }
  return parts.join('');
}

function caption(prompt: string, width: number, height: number): string {
  const fontSize = Math.max(8, Math.round(Math.min(width, height) / 18));
  const perLine = Math.max(8, Math.floor((width * 0.9) / (fontSize * 0.55)));
  const lines = wrapText(prompt, perLine);
  const lineHeight = Math.round(fontSize * 1.25);
  const top = Math.round(height / 2 - (lines.length * lineHeight) / 2);
  const tspans = lines
    .map(
      (line, i) =>
        `<tspan x="${width / 2}" y="${top + (i + 0.8) * lineHeight}">${escapeSvgText(line)}</tspan>`,
    )
    .join('');
  return (
    `<rect x="0" y="${top - lineHeight / 2}" width="${width}" height="${(lines.length + 1) * lineHeight}" fill="#000" fill-opacity="0.35"/>` +
    `<text font-family="DejaVu Sans, Arial, Helvetica, sans-serif" font-size="${fontSize}" fill="#fff" text-anchor="middle">${tspans}</text>`
  );
}

/** A corner label, so nobody mistakes a demo picture for a generated one. */
function footer(width: number, height: number): string {
  const fontSize = Math.max(6, Math.round(Math.min(width, height) / 40));
  return (
    `<text x="${width - fontSize}" y="${height - fontSize}" font-family="DejaVu Sans, Arial, Helvetica, sans-serif" ` +
    `font-size="${fontSize}" fill="#fff" fill-opacity="0.8" text-anchor="end">Pictor demo · ${width}×${height}</text>`
  );
}

/** The SVG of a demo image: seeded background and shapes, the prompt written across it. */
export function buildSvg(spec: ImageSpec): string {
  const { width, height } = spec;
  const random = seededRandom(hashParts(spec.seed, 'image', spec.prompt, spec.index));
  const [from, to] = [colour(random, 70), colour(random, 30)];
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/>` +
    `<stop offset="1" stop-color="${to}"/></linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#bg)"/>` +
    shapes(random, width, height) +
    caption(spec.prompt, width, height) +
    footer(width, height) +
    '</svg>'
  );
}

/** Renders an exact-size PNG from the SVG; low compression keeps it fast. */
export async function renderPng(spec: ImageSpec): Promise<Buffer> {
  return sharp(Buffer.from(buildSvg(spec)), { density: 72 })
    .resize(spec.width, spec.height, { fit: 'fill' })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/**
 * Renders images at their first download and keeps the last {@link CACHE_SIZE} in memory
 * (least recently used goes first). Concurrent downloads of one image share one render.
 */
export class ImageCache {
  private readonly entries = new Map<string, Promise<Buffer>>();

  constructor(private readonly capacity = CACHE_SIZE) {}

  get(spec: ImageSpec): Promise<Buffer> {
    const key = `${spec.seed}|${spec.index}|${spec.width}x${spec.height}|${spec.prompt}`;
    const cached = this.entries.get(key);
    if (cached) {
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const rendering = renderPng(spec);
    rendering.catch(() => this.entries.delete(key));
    this.entries.set(key, rendering);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return rendering;
  }
}
