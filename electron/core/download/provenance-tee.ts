/**
 * A PNG's provenance written while it downloads: the body's pieces go through the one-pass edit
 * (gallery/metadata/png-stream.ts) into a second temp file beside the download's own, so the
 * metadata step does not read the image back twice and write it again. The download's file stays
 * the body exactly as it came: the image check reads it, and it is what is kept when the image
 * carries Content Credentials or the edit refused it (download-image.ts then takes the file
 * path, which gives the refusal its reason and its log line). Never throws: any problem here,
 * the disk's included, only turns the tee off.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { PngProvenanceStream } from '../gallery';
import { removeQuietly } from '../fs';
import type { ImageKind } from '../images';

export class ProvenanceTee {
  private state: 'waiting' | 'writing' | 'off' = 'waiting';
  /** Pieces that came before the body was recognised (a few bytes: see HeadSniffer). */
  private pending: Uint8Array[] = [];
  private stream: PngProvenanceStream | null = null;
  private file: FileHandle | null = null;

  /**
   * @param path a new temp file for the edited image
   * @param inserted Pictor's chunks, put right after IHDR (embed.ts: pngProvenanceChunks), made
   *   once the body is known to be a PNG
   * @param maxBytes the edited image may not be larger (the download's cap)
   */
  constructor(
    readonly path: string,
    private readonly inserted: () => Uint8Array,
    private readonly maxBytes: number,
  ) {}

  /** Feeds the body's next piece; `kind` is what the body has been recognised as so far. */
  async push(piece: Uint8Array, kind: ImageKind | null): Promise<void> {
    if (this.state === 'off') return;
    if (kind === null) {
      // A copy: the piece is a view of a buffer the download fills again (write-buffers.ts).
      this.pending.push(piece.slice());
      return;
    }
    if (kind !== 'png') return this.off();
    try {
      if (this.state === 'waiting') {
        this.file = await open(this.path, 'wx');
        this.stream = new PngProvenanceStream(this.inserted(), this.maxBytes);
        this.state = 'writing';
        const pieces = [...this.pending, piece];
        this.pending = [];
        for (const each of pieces) await this.write(each);
        return;
      }
      await this.write(piece);
    } catch {
      await this.off();
    }
  }

  private async write(piece: Uint8Array): Promise<void> {
    const out = this.stream?.push(piece) ?? [];
    if (out.length > 0) await this.file?.writev(out);
  }

  /**
   * Whether the finished edit saw no chunk where Content Credentials could be (no `caBX`, no
   * `iTXt`): the file then has none, as the credentials walk would find (it reads only those,
   * and the edit checked every chunk through IEND), and need not be read again to say so.
   */
  get sawNoCredentials(): boolean {
    return this.finished && this.stream !== null && !this.stream.mayCarryCredentials;
  }

  private finished = false;

  /**
   * Ends the edit once the whole body went through: the edited file's length, its file closed
   * (not yet synced: download-image.ts syncs the file it keeps), or null, the tee off.
   */
  async finish(): Promise<number | null> {
    if (this.state !== 'writing' || !this.stream || !this.file) {
      await this.off();
      return null;
    }
    try {
      this.stream.end();
      const file = this.file;
      this.file = null;
      await file.close();
      this.finished = true;
      return this.stream.written;
    } catch {
      await this.off();
      return null;
    }
  }

  /** Stops the edit and removes its file. */
  async off(): Promise<void> {
    this.state = 'off';
    this.finished = false;
    this.pending = [];
    const file = this.file;
    this.file = null;
    await file?.close().catch(() => undefined);
    await removeQuietly(this.path);
  }
}
