import { ImageEngineError, type ImageEngine } from '../ports/image-engine';
import { gradientPng, type Rgb } from './plain-png';
import { hashParts, seededRandom } from './prng';

/** What draws the demo's pictures: the host's image engine (the app's, or native sharp). */
export type DemoRenderer = Pick<ImageEngine, 'renderSvgPng'>;

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

/**
 * A striped corner band, so nobody mistakes a demo picture for a generated one. Shapes, not text:
 * an engine may have no fonts, so SVG text would not be drawn the same everywhere.
 */
function demoMark(width: number, height: number): string {
  const band = Math.max(8, Math.round(Math.min(width, height) / 6));
  const stripe = Math.max(2, Math.round(band / 6));
  return (
    `<defs><pattern id="demo" width="${stripe * 2}" height="${stripe * 2}" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<rect width="${stripe}" height="${stripe * 2}" fill="#fff" fill-opacity="0.55"/></pattern></defs>` +
    `<polygon points="${width},${height - band * 2} ${width},${height} ${width - band * 2},${height}" fill="url(#demo)"/>`
  );
}

/** The SVG of a demo image: background and shapes seeded by the prompt, and the demo mark. */
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
    demoMark(width, height) +
    '</svg>'
  );
}

/** The demo picture's two corner colours, seeded like its SVG, for the plain fallback. */
function cornerColours(spec: ImageSpec): [Rgb, Rgb] {
  const random = seededRandom(hashParts(spec.seed, 'image', spec.prompt, spec.index));
  const channel = () => 40 + Math.floor(random() * 176);
  return [
    [channel(), channel(), channel()],
    [channel(), channel(), channel()],
  ];
}

/**
 * An exact-size PNG of the demo picture, drawn from its SVG by `renderer`; without one, or when it
 * cannot draw (the header-only engine), a plain gradient PNG in the picture's colours.
 */
export async function renderPng(spec: ImageSpec, renderer?: DemoRenderer): Promise<Buffer> {
  if (renderer) {
    try {
      const png = await renderer.renderSvgPng(buildSvg(spec), spec);
      return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
    } catch (error) {
      if (!(error instanceof ImageEngineError && error.why === 'unavailable')) throw error;
    }
  }
  return gradientPng(spec.width, spec.height, ...cornerColours(spec));
}

/**
 * Renders images at their first download and keeps the last {@link CACHE_SIZE} in memory
 * (least recently used goes first). Concurrent downloads of one image share one render.
 */
export class ImageCache {
  private readonly entries = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly renderer?: DemoRenderer,
    private readonly capacity = CACHE_SIZE,
  ) {}

  get(spec: ImageSpec): Promise<Buffer> {
    const key = `${spec.seed}|${spec.index}|${spec.width}x${spec.height}|${spec.prompt}`;
    const cached = this.entries.get(key);
    if (cached) {
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const rendering = renderPng(spec, this.renderer);
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
