/**
 * What a demo picture shows: one of a few scenes (scattered shapes, rings, hills under a sun,
 * tiles) over a gradient, in a palette around one hue. The same prompt, variant and index always
 * give the same picture; each further picture of a prompt (the next task of a batch, the next
 * image of a task) turns the hue by the golden angle and moves to the next scene, so the
 * pictures of one batch never look alike.
 *
 * Shapes only, no text: the renderer may have no fonts.
 */
import { hashParts, hashUnit, seededRandom } from './prng';

/** What a picture is drawn from. */
export interface SceneSpec {
  readonly prompt: string;
  readonly width: number;
  readonly height: number;
  /** The task's place among the service's tasks of the same prompt (0 for the first). */
  readonly variant: number;
  /** The image's place in its task. */
  readonly index: number;
  readonly seed: number;
}

type Random = () => number;
type Scene = (random: Random, hue: number, width: number, height: number) => string;

/** Degrees the palette turns from one picture of a prompt to the next. */
const GOLDEN_ANGLE = 137.508;
/** Palette turns an image of a task takes beside its task's own (not a multiple of the scenes). */
const IMAGE_STEP = 3;

function hsl(hue: number, saturation: number, lightness: number, alpha = 1): string {
  const h = Math.round(((hue % 360) + 360) % 360);
  return `hsla(${h}, ${Math.round(saturation)}%, ${Math.round(lightness)}%, ${alpha.toFixed(2)})`;
}

/** A hue near `hue` (analogous or complementary), for the scene's parts. */
function near(random: Random, hue: number): number {
  return hue + (random() < 0.25 ? 180 : 0) + (random() - 0.5) * 60;
}

const shapes: Scene = (random, hue, width, height) => {
  const parts: string[] = [];
  const count = 4 + Math.floor(random() * 5);
  for (let i = 0; i < count; i += 1) {
    const x = Math.round(random() * width);
    const y = Math.round(random() * height);
    const size = Math.round((0.08 + random() * 0.3) * Math.min(width, height));
    const fill = hsl(
      near(random, hue),
      55 + random() * 35,
      30 + random() * 45,
      0.4 + random() * 0.5,
    );
    if (random() < 0.5) parts.push(`<circle cx="${x}" cy="${y}" r="${size}" fill="${fill}"/>`);
    else {
      const angle = Math.round(random() * 90);
      parts.push(
        `<rect x="${x - size}" y="${y - size / 2}" width="${size * 2}" height="${size}" fill="${fill}" transform="rotate(${angle} ${x} ${y})"/>`,
      );
    }
  }
  return parts.join('');
};

const rings: Scene = (random, hue, width, height) => {
  const cx = Math.round((0.2 + random() * 0.6) * width);
  const cy = Math.round((0.2 + random() * 0.6) * height);
  const step = Math.max(3, Math.round(Math.min(width, height) * (0.05 + random() * 0.06)));
  const parts: string[] = [];
  for (let r = Math.max(width, height); r > 0; r -= step) {
    const light = 25 + ((r / step) % 2) * 35 + random() * 10;
    parts.push(
      `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${hsl(near(random, hue), 65, light, 0.55)}"/>`,
    );
  }
  return parts.join('');
};

const hills: Scene = (random, hue, width, height) => {
  const sunR = Math.round(Math.min(width, height) * (0.08 + random() * 0.1));
  const parts = [
    `<circle cx="${Math.round(random() * width)}" cy="${Math.round(height * (0.15 + random() * 0.25))}" r="${sunR}" fill="${hsl(hue + 40, 90, 75)}"/>`,
  ];
  for (let layer = 0; layer < 3; layer += 1) {
    const base = height * (0.5 + layer * 0.17);
    const points = [`0,${height}`];
    for (let x = 0; x <= 8; x += 1) {
      points.push(`${Math.round((x / 8) * width)},${Math.round(base - random() * height * 0.22)}`);
    }
    points.push(`${width},${height}`);
    parts.push(
      `<polygon points="${points.join(' ')}" fill="${hsl(hue + layer * 12, 45, 45 - layer * 12)}"/>`,
    );
  }
  return parts.join('');
};

const tiles: Scene = (random, hue, width, height) => {
  const columns = 3 + Math.floor(random() * 4);
  const size = width / columns;
  const rows = Math.ceil(height / size);
  const parts: string[] = [];
  for (let row = 0; row < rows; row += 1) {
    for (let column = 0; column < columns; column += 1) {
      const x = Math.round(column * size);
      const y = Math.round(row * size);
      const fill = hsl(near(random, hue), 60, 25 + random() * 55, 0.8);
      const inset = Math.round(size * 0.08);
      parts.push(
        `<rect x="${x + inset}" y="${y + inset}" width="${Math.round(size - 2 * inset)}" height="${Math.round(size - 2 * inset)}" rx="${inset}" fill="${fill}"/>`,
      );
    }
  }
  return parts.join('');
};

const SCENES: readonly Scene[] = [shapes, rings, hills, tiles];

/** The picture's scene: background gradient and shapes, without the SVG element around them. */
export function sceneSvg(spec: SceneSpec): string {
  const { width, height, prompt, seed } = spec;
  const random = seededRandom(hashParts(seed, 'image', prompt, spec.variant, spec.index));
  const hue =
    hashUnit(seed, 'hue', prompt) * 360 + GOLDEN_ANGLE * (spec.variant + IMAGE_STEP * spec.index);
  const next = hashParts(seed, 'scene', prompt) + spec.variant + spec.index;
  const scene = SCENES[next % SCENES.length] ?? shapes;
  const angle = Math.round(random() * 360);
  return (
    `<defs><linearGradient id="bg" gradientTransform="rotate(${angle} 0.5 0.5)">` +
    `<stop offset="0" stop-color="${hsl(hue, 60, 78)}"/>` +
    `<stop offset="1" stop-color="${hsl(hue + 30, 70, 28)}"/></linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#bg)"/>` +
    scene(random, hue, width, height)
  );
}
