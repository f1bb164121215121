/**
 * What the three container editors share: a refusal with a reason (a sentence naming no path,
 * URL or key), and the output as a list of pieces, slices of the original bytes and the few new
 * ones, so an image is never copied whole in memory to be changed.
 */

/** The image's structure cannot be trusted; its metadata is left alone. */
export class ContainerError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ContainerError';
  }
}

/** The edited file: its pieces in order (write them one after the other) and its length. */
export interface EditedImage {
  readonly pieces: readonly Uint8Array[];
  readonly length: number;
}

/** Collects pieces, merging slices that follow each other in the original. */
export class PieceList {
  private readonly list: Uint8Array[] = [];
  /** Where the last piece starts and ends in the original, when it is a slice of it. */
  private lastSlice: { start: number; end: number } | null = null;
  length = 0;

  constructor(private readonly source: Uint8Array) {}

  /** Appends `source[start, end)`. */
  copy(start: number, end: number): void {
    if (end <= start) return;
    if (this.lastSlice?.end === start) {
      this.lastSlice = { start: this.lastSlice.start, end };
      this.list[this.list.length - 1] = this.source.subarray(this.lastSlice.start, end);
    } else {
      this.lastSlice = { start, end };
      this.list.push(this.source.subarray(start, end));
    }
    this.length += end - start;
  }

  add(bytes: Uint8Array): void {
    this.list.push(bytes);
    this.lastSlice = null;
    this.length += bytes.length;
  }

  done(): EditedImage {
    return { pieces: this.list, length: this.length };
  }
}

/** Throws a {@link ContainerError} unless `end` lies within `size`. */
export function need(end: number, size: number, what: string): void {
  if (end > size) throw new ContainerError(`The image file ends inside its ${what}.`);
}

/** Four ASCII letters (a PNG chunk type or a RIFF FourCC, space allowed for the latter). */
export function fourCc(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(
    bytes[at] ?? 0,
    bytes[at + 1] ?? 0,
    bytes[at + 2] ?? 0,
    bytes[at + 3] ?? 0,
  );
}
