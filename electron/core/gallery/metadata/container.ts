/**
 * What the three container editors share: a refusal with a reason (a sentence naming no path,
 * URL or key), and the edit as a plan: ranges of the original file to copy and the few new bytes
 * between them, so an image is never held whole in memory to be changed (plan-writer.ts streams
 * the plan into the new file).
 */

/** The image's structure cannot be trusted; its metadata is left alone. */
export class ContainerError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ContainerError';
  }
}

/** One piece of the edited file: a range of the original, or new bytes. */
export type Piece =
  | { readonly copy: { readonly start: number; readonly end: number } }
  | { readonly bytes: Uint8Array };

/** The edited file: its pieces in order and its length. */
export interface EditPlan {
  readonly pieces: readonly Piece[];
  readonly length: number;
}

/** Collects pieces, merging ranges of the original that follow each other. */
export class PlanBuilder {
  private readonly list: Piece[] = [];
  length = 0;

  /** Appends the original's `[start, end)`. */
  copy(start: number, end: number): void {
    if (end <= start) return;
    const last = this.list.at(-1);
    if (last && 'copy' in last && last.copy.end === start) {
      this.list[this.list.length - 1] = { copy: { start: last.copy.start, end } };
    } else this.list.push({ copy: { start, end } });
    this.length += end - start;
  }

  add(bytes: Uint8Array): void {
    this.list.push({ bytes });
    this.length += bytes.length;
  }

  done(): EditPlan {
    return { pieces: this.list, length: this.length };
  }
}

/** Throws a {@link ContainerError} unless `end` lies within `size`. */
export function need(end: number, size: number, what: string): void {
  if (end > size) throw new ContainerError(`The image file ends inside its ${what}.`);
}

/** `bytes` when present, else a {@link ContainerError} saying the file ends inside `what`. */
export function got<T>(bytes: T | null, what: string): T {
  if (bytes === null) throw new ContainerError(`The image file ends inside its ${what}.`);
  return bytes;
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
