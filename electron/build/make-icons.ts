/**
 * Renders resources/icon.svg into every icon the installers need (`npm run icons`):
 * - icon.png (1024) and icon.icns for macOS, drawn on Apple's grid (margin and shadow kept);
 * - icon.ico (16–256) and icons/<n>x<n>.png (16–1024, Linux) cropped closer, as Windows and
 *   Linux icons fill more of their square.
 * Below 48 px the elements marked `data-detail` are left out: they blur into noise that small.
 * The outputs are committed; electron-builder uses them as they are and converts nothing.
 */
import sharp from 'sharp';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { encodeIcns, encodeIco, ICNS_TYPE_SIZES, type IcnsType } from './icon-containers';
import { messageOf } from '../core/errors';

/** Sizes of the Linux icon set (resources/icons/<n>x<n>.png). */
export const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024] as const;
/** Sizes inside icon.ico. */
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256] as const;
/** Element types inside icon.icns, in the order they are written. */
const ICNS_TYPES: readonly IcnsType[] = [
  'ic11',
  'ic12',
  'ic07',
  'ic08',
  'ic13',
  'ic09',
  'ic14',
  'ic10',
];

/** How an icon is framed: on Apple's grid, or cropped to the body for Windows and Linux. */
export type IconFraming = 'grid' | 'tight';

/** Below this size the detail elements are dropped. */
const DETAIL_MIN_SIZE = 48;
/** The body spans 100–924 on the 1024 grid; keep a little room for its shadow. */
const TIGHT_VIEW_BOX = '72 72 880 880';
const SOURCE_SIDE = 1024;

/** The SVG text adapted for one size and framing (pure: string in, string out). */
export function adaptSvg(svg: string, size: number, framing: IconFraming): string {
  let out = svg;
  if (size < DETAIL_MIN_SIZE) {
    out = out.replace(/<[^<>]*\bdata-detail="true"[^<>]*\/>/g, '');
  }
  if (framing === 'tight') {
    out = out.replace(/viewBox="[^"]*"/, `viewBox="${TIGHT_VIEW_BOX}"`);
  }
  return out;
}

/**
 * One square PNG of the icon. Small sizes are drawn four times larger and scaled down, which
 * antialiases thin strokes better than drawing at 16 px.
 */
export async function renderIcon(svg: string, size: number, framing: IconFraming): Promise<Buffer> {
  const drawSize = size >= 256 ? size : size * 4;
  const density = (72 * drawSize) / SOURCE_SIDE;
  return sharp(Buffer.from(adaptSvg(svg, size, framing)), { density })
    .resize(size, size, { fit: 'fill', kernel: 'lanczos3' })
    .png({ compressionLevel: 9, adaptiveFiltering: true })
    .toBuffer();
}

/** Where to read the SVG and write the icons. */
export interface IconPaths {
  readonly svgFile: string;
  readonly outDir: string;
}

/** Writes icon.png, icon.icns, icon.ico and icons/<n>x<n>.png; returns the paths written. */
async function makeIcons(paths: IconPaths): Promise<string[]> {
  const svg = await readFile(paths.svgFile, 'utf8');
  const written: string[] = [];
  const write = async (relative: string, data: Buffer): Promise<void> => {
    const file = path.join(paths.outDir, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, data);
    written.push(file);
  };

  await write('icon.png', await renderIcon(svg, 1024, 'grid'));
  for (const size of LINUX_SIZES) {
    await write(path.join('icons', `${size}x${size}.png`), await renderIcon(svg, size, 'tight'));
  }
  const icoImages = await Promise.all(
    ICO_SIZES.map(async (size) => ({ size, png: await renderIcon(svg, size, 'tight') })),
  );
  await write('icon.ico', encodeIco(icoImages));
  const icnsImages = await Promise.all(
    ICNS_TYPES.map(async (type) => ({
      type,
      png: await renderIcon(svg, ICNS_TYPE_SIZES[type], 'grid'),
    })),
  );
  await write('icon.icns', encodeIcns(icnsImages));
  return written;
}

async function runCli(): Promise<void> {
  const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const resources = path.join(rootDir, 'resources');
  const written = await makeIcons({ svgFile: path.join(resources, 'icon.svg'), outDir: resources });
  for (const file of written) console.log(path.relative(rootDir, file));
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  runCli().catch((error: unknown) => {
    console.error(`icons failed: ${messageOf(error)}`);
    process.exitCode = 1;
  });
}
