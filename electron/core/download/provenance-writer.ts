/**
 * A PNG's provenance written while it downloads, each byte once: the body's pieces go through the
 * one-pass edit (gallery/metadata/png-stream.ts) and only the edited image is written, the file
 * the gallery keeps. The body as it came is needed only when the image may carry Content
 * Credentials (a `caBX` or an `iTXt` chunk: a signed file is kept exactly as it came), when the
 * edit leaves a chunk out, or when the edit refuses the file (the file path then gives the
 * refusal its reason and its log line). Until then it is the edited image without Pictor's chunks
 * plus the few bytes the edit holds (PngProvenanceStream.heldInput), so it is not kept: when one
 * of those shows, it is written out from the edited file's bytes and, from there on, the body's
 * own file takes every piece too (both files, as the metadata step expects).
 *
 * A write of the edited image that fails while it is the only copy fails the download (a retry,
 * as a failed write of the body's own file does); once both are written, any problem of the edit
 * only turns it off.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { INSERTED_AT, PngProvenanceStream } from '../gallery';
import { GALLERY_FILE_MODE, removeQuietly } from '../fs';
import type { ImageKind } from '../images';
import { BodyFile } from './body-file';
import type { BodySink } from './body-to-file';
import { writeAllParts } from './write-buffers';

/** What the writer left on disk once the whole body went through it. */
export interface WrittenBody {
  /** Whether the download's own file holds the body as it came. */
  readonly asItCame: boolean;
  /** The edited image's length (its file closed, not yet synced), or null: there is none. */
  readonly edited: number | null;
  /**
   * Whether the edit saw no chunk where Content Credentials could be (no `caBX`, no `iTXt`): the
   * body then has none, as the credentials walk would find (it reads only those chunks, and the
   * edit checked every chunk through IEND), and need not be read again to say so.
   */
  readonly sawNoCredentials: boolean;
  /**
   * The edited image's outline (its bytes but pixel data: images/metadata-outline.ts), made as it
   * was written, for the key search (key-intake.ts) not to read every chunk's head back; null:
   * no edited image, or its outline is past the search's bound.
   */
  readonly outline: Buffer | null;
}

type Mode =
  /** The body is not recognised yet: its pieces are kept (a few bytes: see HeadSniffer). */
  | 'waiting'
  /** Only the edited image is written. */
  | 'edited'
  /** The body as it came and, while the edit goes on, the edited image. */
  | 'both'
  /** The body as it came only (not a PNG, or the edit is off). */
  | 'asItCame';

/** The edit under way: the one-pass edit, its file, and what the file holds. */
interface Edit {
  readonly stream: PngProvenanceStream;
  readonly file: FileHandle;
  bytes: number;
}

const lengthOf = (parts: readonly Uint8Array[]) =>
  parts.reduce((sum, part) => sum + part.length, 0);

export class ProvenanceWriter implements BodySink {
  private mode: Mode = 'waiting';
  private pending: Uint8Array[] = [];
  private edit: Edit | null = null;
  private readonly body: BodyFile;

  /**
   * @param paths the download's own temp file (the body as it came) and a new temp file for the
   *   edited image
   * @param inserted Pictor's chunks, put right after IHDR (embed.ts: pngProvenanceChunks), made
   *   once the body is known to be a PNG
   * @param maxBytes the edited image may not be larger (the download's cap)
   * @param outlineMax the edited image's outline is kept up to this many bytes (none when absent)
   */
  constructor(
    private readonly paths: { readonly body: string; readonly edited: string },
    private readonly inserted: () => Uint8Array,
    private readonly maxBytes: number,
    private readonly outlineMax?: number,
  ) {
    this.body = new BodyFile(paths.body);
  }

  /** Takes the body's next piece; `kind` is what it has been recognised as so far. */
  async write(piece: Uint8Array, kind: ImageKind | null): Promise<void> {
    if (this.mode === 'waiting') {
      // A copy (not Buffer's slice, a view): the piece is a view of a buffer the download fills
      // again (write-buffers.ts).
      if (kind === null) return void this.pending.push(new Uint8Array(piece));
      const pieces = [...this.pending, piece];
      this.pending = [];
      this.mode = kind === 'png' && (await this.startEdit()) ? 'edited' : 'asItCame';
      for (const each of pieces) await this.write(each, kind);
      return;
    }
    if (!this.edit) return this.body.write(piece);
    if (this.mode === 'edited') return this.editOnly(this.edit, piece);
    const [asItCame] = await Promise.allSettled([this.body.write(piece), this.editBeside(piece)]);
    if (asItCame.status === 'rejected') throw asItCame.reason;
  }

  private async startEdit(): Promise<boolean> {
    try {
      const stream = new PngProvenanceStream(this.inserted(), this.maxBytes, this.outlineMax);
      // Readable too: the body as it came may have to be written out from it.
      this.edit = {
        stream,
        file: await open(this.paths.edited, 'wx+', GALLERY_FILE_MODE),
        bytes: 0,
      };
      return true;
    } catch {
      await this.editOff();
      return false;
    }
  }

  /** The edited image is the only copy: the piece is edited, unless it shows the body is needed. */
  private async editOnly(edit: Edit, piece: Uint8Array): Promise<void> {
    const { stream } = edit;
    const held = stream.heldInput;
    let out: Uint8Array[] | null = null;
    try {
      out = stream.push(piece);
    } catch {
      // Refused: the body as it came is what the metadata step reads.
    }
    if (out && !stream.dropped && !stream.mayCarryCredentials) {
      await writeAllParts(edit.file, out);
      edit.bytes += lengthOf(out);
      return;
    }
    await this.writeBodySoFar(edit, held);
    await this.body.write(piece);
    this.mode = 'both';
    if (out) await this.writeEdited(edit, out);
    else await this.editOff();
  }

  /**
   * Writes the body as it came up to the current piece: the edited file without Pictor's chunks
   * (there once the file is past them), then what the edit held.
   */
  private async writeBodySoFar(edit: Edit, held: Uint8Array): Promise<void> {
    const insertedEnd = INSERTED_AT + edit.stream.insertedLength;
    if (edit.bytes >= insertedEnd) {
      await this.body.copyFrom(edit.file, 0, INSERTED_AT);
      await this.body.copyFrom(edit.file, insertedEnd, edit.bytes);
    } else {
      await this.body.copyFrom(edit.file, 0, edit.bytes);
    }
    if (held.length > 0) await this.body.write(held);
  }

  /** Edits a piece beside the body's own file; never rejects: a problem turns the edit off. */
  private async editBeside(piece: Uint8Array): Promise<void> {
    const { edit } = this;
    if (!edit) return;
    let out: Uint8Array[];
    try {
      out = edit.stream.push(piece);
    } catch {
      return this.editOff();
    }
    await this.writeEdited(edit, out);
  }

  private async writeEdited(edit: Edit, out: Uint8Array[]): Promise<void> {
    try {
      await writeAllParts(edit.file, out);
      edit.bytes += lengthOf(out);
    } catch {
      await this.editOff();
    }
  }

  /**
   * Ends the edit once the whole body went through: what is on disk. Rejects when the body as it
   * came had to be written out and the disk failed (a retry).
   */
  async finish(): Promise<WrittenBody> {
    for (const each of this.pending.splice(0)) await this.body.write(each);
    const { edit } = this;
    let ended = edit !== null;
    try {
      edit?.stream.end();
    } catch {
      ended = false;
      if (edit && this.mode === 'edited') await this.writeBodySoFar(edit, edit.stream.heldInput);
    }
    if (!ended) await this.editOff();
    await this.close();
    return {
      asItCame: this.body.made,
      edited: ended && edit ? edit.bytes : null,
      sawNoCredentials: ended && edit !== null && !edit.stream.mayCarryCredentials,
      outline: ended && edit ? edit.stream.outline : null,
    };
  }

  /** Closes the files (they stay on disk: the download removes its temp files). Never rejects. */
  async close(): Promise<void> {
    const file = this.edit?.file;
    await file?.close().catch(() => undefined);
    await this.body.close();
  }

  /** Stops the edit and removes its file. */
  private async editOff(): Promise<void> {
    const file = this.edit?.file;
    this.edit = null;
    this.mode = 'asItCame';
    await file?.close().catch(() => undefined);
    await removeQuietly(this.paths.edited);
  }
}
