/**
 * The mask as pixels, with no DOM: one coverage byte per source pixel (255 where the image is to
 * be edited, 0 elsewhere), at the source's exact size, so the exported masks need no resampling
 * and a painted pixel is the pixel the service edits.
 *
 * Brush and eraser strokes are round stamps swept along each pointer segment (a capsule: every
 * pixel whose centre lies within half the brush size of the segment), so a fast pointer leaves no
 * gaps. Undo keeps, per step, only the tiles the step changed (before and after; a tile of one
 * value as that value), never a copy of the whole mask; invert is its own inverse and keeps
 * nothing; the steps are capped in number and in the bytes they hold together.
 */

/** Edge of the square tiles undo records, in pixels (64 × 64 = 4 KiB a tile). */
const TILE = 64;
/** Steps kept for undo by default; the oldest is dropped beyond it. */
const MAX_UNDO_STEPS = 50;
/**
 * Bytes the undo steps may hold together by default; the oldest steps are dropped beyond it (the
 * latest is always kept). Fifty clears of a 4096² mask would otherwise hold 800 MB.
 */
const MAX_UNDO_BYTES = 64 * 1024 * 1024;
/** Coverage byte of a pixel to be edited. */
export const COVERED = 255;

export type MaskTool = 'brush' | 'eraser';

/** A rectangle of pixels, `x`/`y` inclusive, `width`/`height` ≥ 0. */
export interface PixelRect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A tile's bytes (row by row), or its one value when every pixel has it (kept in no bytes). */
type TileBytes = Uint8Array | number;

/** One tile a step changed: its index and its bytes before and after. */
interface TileChange {
  readonly tile: number;
  readonly before: TileBytes;
  readonly after: TileBytes;
}

type Step =
  | { readonly kind: 'invert'; readonly bytes: 0 }
  | { readonly kind: 'tiles'; readonly tiles: TileChange[]; readonly bytes: number };

/** Limits of the undo history. */
export interface MaskHistoryLimits {
  /** Steps kept (50 when absent). */
  readonly maxSteps?: number;
  /** Bytes the steps may hold together (64 MiB when absent). */
  readonly maxBytes?: number;
}

/** A stroke under way: segments add to it, `end()` makes it one undo step. */
export interface MaskStroke {
  /** Sweeps the brush from the last point to (x, y) (source pixels); answers what changed. */
  to(x: number, y: number): PixelRect;
  /** Ends the stroke; answers whether it changed any pixel (and so made an undo step). */
  end(): boolean;
}

/** The coverage mask of one source image, with its undo history. */
export class MaskRaster {
  readonly width: number;
  readonly height: number;
  /** One byte per pixel, row by row: {@link COVERED} or 0. */
  readonly coverage: Uint8Array;
  private readonly tilesAcross: number;
  private readonly maxSteps: number;
  private readonly maxBytes: number;
  private heldBytes = 0;
  private readonly done: Step[] = [];
  private undone: Step[] = [];

  constructor(width: number, height: number, limits: MaskHistoryLimits = {}) {
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
      throw new RangeError(`A mask needs a positive whole size, not ${width}×${height}.`);
    }
    this.width = width;
    this.height = height;
    this.coverage = new Uint8Array(width * height);
    this.tilesAcross = Math.ceil(width / TILE);
    this.maxSteps = Math.max(1, limits.maxSteps ?? MAX_UNDO_STEPS);
    this.maxBytes = limits.maxBytes ?? MAX_UNDO_BYTES;
  }

  /** The whole mask as a rectangle. */
  get bounds(): PixelRect {
    return { x: 0, y: 0, width: this.width, height: this.height };
  }

  /** Whether the pixel at (x, y) is to be edited. */
  covered(x: number, y: number): boolean {
    return this.coverage[y * this.width + x] === COVERED;
  }

  /** Whether no pixel is to be edited. */
  isEmpty(): boolean {
    return !this.coverage.some((value) => value !== 0);
  }

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  /** Bytes the undo and redo steps hold (tiles before and after): what the history costs. */
  get historyBytes(): number {
    return this.heldBytes;
  }

  /** Starts a stroke of `tool`, `size` source pixels across, at (x, y). */
  begin(tool: MaskTool, size: number, x: number, y: number): MaskStroke {
    const brush = { value: tool === 'brush' ? COVERED : 0, radius: Math.max(0.5, size / 2) };
    const touched = new Map<number, Uint8Array>();
    let last = { x, y };
    const sweep = (to: { x: number; y: number }): PixelRect => {
      const rect = this.capsule(last, to, brush, touched);
      last = to;
      return rect;
    };
    sweep({ x, y });
    return {
      to: (toX, toY) => sweep({ x: toX, y: toY }),
      end: () => this.record(this.changesOf(touched)),
    };
  }

  /** Swaps edited and kept pixels; an undo step of its own. */
  invert(): void {
    this.flip();
    this.push({ kind: 'invert', bytes: 0 });
  }

  /** Unpaints every pixel; answers whether anything was painted (and so made a step). */
  clear(): boolean {
    return this.replace(new Uint8Array(this.coverage.length));
  }

  /**
   * Takes `next` (one byte per pixel, non-zero = edit) as the whole mask, one undo step; answers
   * whether any pixel changed.
   */
  replace(next: Uint8Array): boolean {
    if (next.length !== this.coverage.length) throw new RangeError('A mask of another size.');
    const touched = new Map<number, Uint8Array>();
    for (let index = 0; index < next.length; index += 1) {
      const value = next[index] ? COVERED : 0;
      if (this.coverage[index] === value) continue;
      this.remember(index % this.width, Math.floor(index / this.width), touched);
      this.coverage[index] = value;
    }
    return this.record(this.changesOf(touched));
  }

  /** Takes back the last step; answers whether there was one. */
  undo(): boolean {
    return this.move(this.done, this.undone, 'before');
  }

  /** Does again the last step taken back; answers whether there was one. */
  redo(): boolean {
    return this.move(this.undone, this.done, 'after');
  }

  /** Moves the last step of `from` to `to`, the pixels set to its `side`; false when none. */
  private move(from: Step[], to: Step[], side: 'before' | 'after'): boolean {
    const step = from.pop();
    if (!step) return false;
    this.apply(step, side);
    to.push(step);
    return true;
  }

  /** Marks every pixel within `radius` of the segment a→b (and the pixel under b) as `value`. */
  private capsule(
    a: { x: number; y: number },
    b: { x: number; y: number },
    { radius, value }: { radius: number; value: number },
    touched: Map<number, Uint8Array>,
  ): PixelRect {
    // The pixels whose centre (x + 0.5) can lie within `radius`, and the pixel under b.
    const under = { x: Math.floor(b.x), y: Math.floor(b.y) };
    const left = Math.max(0, Math.min(under.x, Math.ceil(Math.min(a.x, b.x) - radius - 0.5)));
    const top = Math.max(0, Math.min(under.y, Math.ceil(Math.min(a.y, b.y) - radius - 0.5)));
    const right = Math.min(
      this.width - 1,
      Math.max(under.x, Math.floor(Math.max(a.x, b.x) + radius - 0.5)),
    );
    const bottom = Math.min(
      this.height - 1,
      Math.max(under.y, Math.floor(Math.max(a.y, b.y) + radius - 0.5)),
    );
    for (let y = top; y <= bottom; y += 1) {
      for (let x = left; x <= right; x += 1) {
        const inside =
          distanceSquared(x + 0.5, y + 0.5, a, b) <= radius * radius ||
          (x === under.x && y === under.y);
        if (inside) this.set(x, y, value, touched);
      }
    }
    return {
      x: left,
      y: top,
      width: Math.max(0, right - left + 1),
      height: Math.max(0, bottom - top + 1),
    };
  }

  private set(x: number, y: number, value: number, touched: Map<number, Uint8Array>): void {
    const index = y * this.width + x;
    if (this.coverage[index] === value) return;
    this.remember(x, y, touched);
    this.coverage[index] = value;
  }

  /** Keeps the tile of (x, y) as it was before the step first changed it. */
  private remember(x: number, y: number, touched: Map<number, Uint8Array>): void {
    const tile = Math.floor(y / TILE) * this.tilesAcross + Math.floor(x / TILE);
    if (!touched.has(tile)) touched.set(tile, this.readTile(tile));
  }

  private tileRect(tile: number): PixelRect {
    const x = (tile % this.tilesAcross) * TILE;
    const y = Math.floor(tile / this.tilesAcross) * TILE;
    return { x, y, width: Math.min(TILE, this.width - x), height: Math.min(TILE, this.height - y) };
  }

  private readTile(tile: number): Uint8Array {
    const rect = this.tileRect(tile);
    const bytes = new Uint8Array(rect.width * rect.height);
    for (let row = 0; row < rect.height; row += 1) {
      const start = (rect.y + row) * this.width + rect.x;
      bytes.set(this.coverage.subarray(start, start + rect.width), row * rect.width);
    }
    return bytes;
  }

  private writeTile(tile: number, bytes: TileBytes): void {
    const rect = this.tileRect(tile);
    for (let row = 0; row < rect.height; row += 1) {
      const start = (rect.y + row) * this.width + rect.x;
      if (typeof bytes === 'number') this.coverage.fill(bytes, start, start + rect.width);
      else this.coverage.set(bytes.subarray(row * rect.width, (row + 1) * rect.width), start);
    }
  }

  private changesOf(touched: Map<number, Uint8Array>): TileChange[] {
    const changes: TileChange[] = [];
    for (const [tile, before] of touched) {
      const after = this.readTile(tile);
      if (!sameBytes(before, after))
        changes.push({ tile, before: packed(before), after: packed(after) });
    }
    return changes;
  }

  private record(tiles: TileChange[]): boolean {
    if (tiles.length === 0) return false;
    const bytes = tiles.reduce((sum, { before, after }) => sum + sizeOf(before) + sizeOf(after), 0);
    this.push({ kind: 'tiles', tiles, bytes });
    return true;
  }

  private push(step: Step): void {
    for (const dropped of this.undone) this.heldBytes -= dropped.bytes;
    this.undone = [];
    this.done.push(step);
    this.heldBytes += step.bytes;
    while (
      this.done.length > this.maxSteps ||
      (this.done.length > 1 && this.heldBytes > this.maxBytes)
    ) {
      this.heldBytes -= this.done.shift()?.bytes ?? 0;
    }
  }

  private apply(step: Step, side: 'before' | 'after'): void {
    if (step.kind === 'invert') {
      this.flip();
      return;
    }
    for (const change of step.tiles) this.writeTile(change.tile, change[side]);
  }

  private flip(): void {
    for (let index = 0; index < this.coverage.length; index += 1) {
      this.coverage[index] = this.coverage[index] ? 0 : COVERED;
    }
  }
}

/** Squared distance from (px, py) to the segment a→b (to a when a = b). */
function distanceSquared(
  px: number,
  py: number,
  a: { x: number; y: number },
  b: { x: number; y: number },
): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = dx * dx + dy * dy;
  const along =
    length === 0 ? 0 : Math.max(0, Math.min(1, ((px - a.x) * dx + (py - a.y) * dy) / length));
  const nearX = a.x + along * dx - px;
  const nearY = a.y + along * dy - py;
  return nearX * nearX + nearY * nearY;
}

/** A tile's bytes, or their one value when all are the same. */
function packed(bytes: Uint8Array): TileBytes {
  const first = bytes[0] ?? 0;
  return bytes.every((value) => value === first) ? first : bytes;
}

function sizeOf(bytes: TileBytes): number {
  return typeof bytes === 'number' ? 0 : bytes.length;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}
