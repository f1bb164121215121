/**
 * Writes ZIP archives byte by byte, so a test can craft every field a hostile archive lies in:
 * names, flags, external attributes, declared sizes, ZIP64 fields, offsets, entry counts.
 * Nothing here validates: that is the point.
 */
import { crc32, deflateRawSync } from 'node:zlib';

export interface CraftedEntry {
  readonly name: string | Buffer;
  readonly data?: Buffer;
  /** 0 store, 8 deflate (default 8 for data over 0 bytes). */
  readonly method?: number;
  readonly flags?: number;
  /** Unix mode in the high 16 bits when `versionMadeBy` is Unix. */
  readonly unixMode?: number;
  readonly compressedSize?: number;
  readonly uncompressedSize?: number;
  /** Extra fields of the central directory record. */
  readonly extra?: Buffer;
  /** Point this entry's central record at another entry's local header (overlap). */
  readonly sameDataAs?: number;
  /**
   * The extra length its local header claims, without those bytes written: a lie that moves where
   * its data begins (into the entries after it) while the central directory looks whole.
   */
  readonly localExtraLength?: number;
}

export interface CraftOptions {
  readonly entryCount?: number;
}

const UTF8 = 0x800;

function nameBytes(name: string | Buffer): Buffer {
  return typeof name === 'string' ? Buffer.from(name, 'utf8') : name;
}

export function extraField(id: number, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16LE(id, 0);
  head.writeUInt16LE(data.length, 2);
  return Buffer.concat([head, data]);
}

export function craftZip(entries: readonly CraftedEntry[], options: CraftOptions = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  const offsets: number[] = [];
  let offset = 0;
  entries.forEach((entry, i) => {
    const name = nameBytes(entry.name);
    const data = entry.data ?? Buffer.alloc(0);
    const method = entry.method ?? (data.length > 0 ? 8 : 0);
    const body = method === 8 ? deflateRawSync(data) : data;
    const flags = entry.flags ?? (typeof entry.name === 'string' ? UTF8 : 0);
    const crc = crc32(data);
    const compressed = entry.compressedSize ?? body.length;
    const uncompressed = entry.uncompressedSize ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(Math.min(compressed, 0xffffffff), 18);
    local.writeUInt32LE(Math.min(uncompressed, 0xffffffff), 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(entry.localExtraLength ?? 0, 28);
    const own = offset;
    const at = entry.sameDataAs === undefined ? own : (offsets[entry.sameDataAs] ?? 0);
    offsets.push(own);
    if (entry.sameDataAs === undefined) {
      locals.push(local, name, body);
      offset += local.length + name.length + body.length;
    }
    const extra = entry.extra ?? Buffer.alloc(0);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(Math.min(compressed, 0xffffffff), 20);
    central.writeUInt32LE(Math.min(uncompressed, 0xffffffff), 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    central.writeUInt32LE(((entry.unixMode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(at, 42);
    centrals.push(central, name, extra);
    void i;
  });
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const count = options.entryCount ?? entries.length;
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
