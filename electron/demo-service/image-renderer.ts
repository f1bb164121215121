import { ImageEngineError, type ImageEngine } from '../ports/image-engine';
import { gradientPng, type Rgb } from './plain-png';
import { hashParts, seededRandom } from './prng';
import { sceneSvg, type SceneSpec } from './demo-scenes';

/** What draws the demo's pictures: the host's image engine (the app's, or native sharp). */
export type DemoRenderer = Pick<ImageEngine, 'renderSvgPng'>;

/**
 * What an image looks like: the same input always gives the same pixels. `variant` (the task's
 * place among tasks of the same prompt) and `index` (the image's place in its task) make the
 * pictures of one batch and of one task differ from one another (demo-scenes.ts).
 */
export type ImageSpec = SceneSpec;

const CACHE_SIZE = 32;

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

/** The SVG of a demo image: its scene (demo-scenes.ts) and the demo mark. */
export function buildSvg(spec: ImageSpec): string {
  const { width, height } = spec;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    sceneSvg(spec) +
    demoMark(width, height) +
    '</svg>'
  );
}

/** The demo picture's two corner colours, seeded like its SVG, for the plain fallback. */
function cornerColours(spec: ImageSpec): [Rgb, Rgb] {
  const random = seededRandom(hashParts(spec.seed, 'image', spec.prompt, spec.variant, spec.index));
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
async function renderPng(spec: ImageSpec, renderer?: DemoRenderer): Promise<Buffer> {
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
    const key = `${spec.seed}|${spec.variant}|${spec.index}|${spec.width}x${spec.height}|${spec.prompt}`;
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
