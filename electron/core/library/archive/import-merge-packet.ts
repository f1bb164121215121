/**
 * An image merged into a task the library has (import-merge.ts) that came with a key in its task
 * id is published with the packet of the task it joins, at the index it takes there
 * (import-kept-id.ts): the packet names the index, so the staged file is made again for each
 * index it is tried at. It is a duplicate when the task has its bytes as it came, or as made
 * again at its own index, or at the index of one of the task's images near its size: one an
 * earlier merge added took the first free index then, and was made again there.
 */
import type { ImageRecord, TaskRecord } from '../../../../shared/domain/task-record';
import { imageNames } from '../../gallery';
import type { StagedImage } from './import-image';
import { remakeStagedImage } from './import-kept-id';
import type { PlannedImage } from './import-plan';
import { savedImage } from './import-records';

/** How far apart in size one image's file is under two of Pictor's packets (their index differs). */
const PACKET_SLACK = 1024;

/** What a merge knows that the packet depends on. */
export interface PacketMerge {
  readonly folder: string;
  /** The task's images' SHA-256. */
  readonly hashes: ReadonlyMap<string, number>;
  readonly added: readonly ImageRecord[];
  /** The incoming task's id carried a key: each added image takes the packet of the task. */
  readonly redact: boolean;
}

/** A staged image as it would be published at {@link MergedPacket.index}. */
export class MergedPacket {
  index: number;
  made: StagedImage;

  private constructor(
    private readonly incoming: {
      readonly temp: string;
      readonly planned: PlannedImage;
      readonly image: ImageRecord;
      readonly staged: StagedImage;
    },
    private readonly existing: TaskRecord,
    private readonly merge: PacketMerge,
    private readonly root: string,
  ) {
    this.index = incoming.image.index;
    this.made = incoming.staged;
  }

  /** The staged image at `temp` made for its own index. */
  static async of(
    incoming: MergedPacket['incoming'],
    existing: TaskRecord,
    merge: PacketMerge,
    root: string,
  ): Promise<MergedPacket> {
    const packet = new MergedPacket(incoming, existing, merge, root);
    await packet.at(incoming.image.index, true);
    return packet;
  }

  /** The file made again for `index` (as it came, for an image that carries no key). */
  async at(index: number, always = false): Promise<StagedImage> {
    if (!this.merge.redact || (index === this.index && !always)) return this.made;
    const { temp, planned, staged } = this.incoming;
    const file = `${this.merge.folder}/${imageNames(index, planned.kind).image}`;
    const image = savedImage(this.incoming.image, planned.kind, staged, { file, index });
    const of = { record: this.existing, image, kind: planned.kind };
    this.made = { ...staged, ...(await remakeStagedImage(temp, of, this.root)) };
    this.index = index;
    return this.made;
  }

  /** The SHA-256 by which the task has this image already (see the module comment), or null. */
  async duplicate(): Promise<string | null> {
    const { hashes, redact, added } = this.merge;
    const { staged } = this.incoming;
    if (hashes.has(staged.sha256)) return staged.sha256;
    if (hashes.has(this.made.sha256)) return this.made.sha256;
    if (!redact) return null;
    const own = this.index;
    for (const known of [...this.existing.images, ...added]) {
      const near = Math.abs((known.bytes ?? -PACKET_SLACK * 2) - this.made.size) <= PACKET_SLACK;
      if (known.state !== 'saved' || known.index === own || !near) continue;
      const { sha256 } = await this.at(known.index);
      if (hashes.has(sha256)) return sha256;
    }
    return null;
  }
}
