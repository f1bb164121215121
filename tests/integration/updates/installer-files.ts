/**
 * Installers as a feed serves them, for the update tests: a Windows PE file whose version
 * resource says a version (as electron-builder's NSIS script writes `ProductVersion`), and a
 * macOS zip whose app bundle's Info.plist says one (`CFBundleShortVersionString`). Their bytes
 * are real structures, read by the same parser as a real installer (installer-version.ts reads
 * Microsoft's own signtool.exe in its unit test); the rest is random padding, so two calls differ.
 */
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

const utf16z = (text: string): Buffer => Buffer.from(`${text}\0`, 'utf16le');
const pad4 = (buffer: Buffer): Buffer =>
  buffer.length % 4 === 0 ? buffer : Buffer.concat([buffer, Buffer.alloc(4 - (buffer.length % 4))]);

/** One node of a version resource: header, key, value and children, each 4-aligned. */
function node(key: string, value: Buffer | string | null, children: Buffer[] = []): Buffer {
  const text = typeof value === 'string';
  const valueBytes = value === null ? Buffer.alloc(0) : text ? utf16z(value) : value;
  const head = Buffer.alloc(6);
  const body = Buffer.concat([pad4(Buffer.concat([head, utf16z(key)])), pad4(valueBytes)]);
  const whole = Buffer.concat([body, ...children.map(pad4)]);
  whole.writeUInt16LE(whole.length, 0);
  whole.writeUInt16LE(text ? valueBytes.length / 2 : valueBytes.length, 2);
  whole.writeUInt16LE(text || value === null ? 1 : 0, 4);
  return whole;
}

/** VS_VERSIONINFO with its fixed part and the strings electron-builder's NSIS script sets. */
export function versionResource(productVersion: string): Buffer {
  const fixed = Buffer.alloc(52);
  fixed.writeUInt32LE(0xfeef04bd, 0);
  fixed.writeUInt32LE(0x00010000, 4);
  const strings = node('040904b0', null, [
    node('ProductName', 'Pictor'),
    node('ProductVersion', productVersion),
    node('FileVersion', `${productVersion}.0`),
  ]);
  return node('VS_VERSION_INFO', fixed, [node('StringFileInfo', null, [strings])]);
}

const SECTION_RVA = 0x1000;
const SECTION_AT = 0x200;

/** The resource section: RT_VERSION → name 1 → language 1033 → the data. */
function resourceSection(version: Buffer): Buffer {
  const directory = (id: number, target: number): Buffer => {
    const dir = Buffer.alloc(24);
    dir.writeUInt16LE(1, 14);
    dir.writeUInt32LE(id, 16);
    dir.writeUInt32LE(target, 20);
    return dir;
  };
  const high = 0x80000000;
  const data = Buffer.alloc(16);
  data.writeUInt32LE(SECTION_RVA + 24 * 3 + 16, 0);
  data.writeUInt32LE(version.length, 4);
  return Buffer.concat([
    directory(16, (high | 24) >>> 0),
    directory(1, (high | 48) >>> 0),
    directory(1033, 72),
    data,
    version,
  ]);
}

/**
 * A PE32 (or PE32+) file whose version resource names `productVersion`; `null`: a PE file with
 * no version resource. `padding` random bytes follow (the installer's payload).
 */
export function windowsInstaller(
  productVersion: string | null,
  options: { readonly plus?: boolean; readonly padding?: number } = {},
): Buffer {
  const plus = options.plus ?? false;
  const section =
    productVersion === null ? Buffer.alloc(16) : resourceSection(versionResource(productVersion));
  const optionalSize = plus ? 240 : 224;
  const headers = Buffer.alloc(SECTION_AT);
  headers.write('MZ', 0, 'latin1');
  headers.writeUInt32LE(0x40, 0x3c);
  headers.write('PE\0\0', 0x40, 'latin1');
  headers.writeUInt16LE(plus ? 0x8664 : 0x14c, 0x44);
  headers.writeUInt16LE(1, 0x46);
  headers.writeUInt16LE(optionalSize, 0x54);
  const optional = 0x58;
  headers.writeUInt16LE(plus ? 0x20b : 0x10b, optional);
  if (productVersion !== null) {
    headers.writeUInt32LE(SECTION_RVA, optional + (plus ? 112 : 96) + 16);
    headers.writeUInt32LE(section.length, optional + (plus ? 112 : 96) + 20);
  }
  const table = optional + optionalSize;
  headers.write('.rsrc', table, 'latin1');
  headers.writeUInt32LE(section.length, table + 8);
  headers.writeUInt32LE(SECTION_RVA, table + 12);
  headers.writeUInt32LE(section.length, table + 16);
  headers.writeUInt32LE(SECTION_AT, table + 20);
  return Buffer.concat([headers, section, randomBytes(options.padding ?? 4_000)]);
}

/** Info.plist as Electron's app bundle has it, naming `version`. */
export function infoPlist(version: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    '  <key>CFBundleExecutable</key>',
    '  <string>Pictor</string>',
    '  <key>CFBundleShortVersionString</key>',
    `  <string>${version}</string>`,
    '  <key>CFBundleVersion</key>',
    `  <string>${version}</string>`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}

/** A zip of files (name → content), stored, as a zip tool writes one (built here, in memory). */
export function zipOf(files: Readonly<Record<string, Buffer | string>>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const data = typeof content === 'string' ? Buffer.from(content) : content;
    const nameBytes = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A macOS update zip whose app says `version` (null: no Info.plist at all). */
export function macInstaller(version: string | null, padding = 4_000): Buffer {
  return zipOf({
    'Pictor.app/Contents/MacOS/Pictor': randomBytes(padding),
    ...(version === null ? {} : { 'Pictor.app/Contents/Info.plist': infoPlist(version) }),
  });
}

/**
 * An installer of `version` for the updater that runs files named like `file` (a `.zip`: the
 * macOS zip; anything else: the Windows PE file), `size` bytes long (at least its structure's).
 */
export function installerBytes(version: string, size: number, file = 'Pictor-Setup.exe'): Buffer {
  const build = (padding: number): Buffer =>
    file.endsWith('.zip') ? macInstaller(version, padding) : windowsInstaller(version, { padding });
  return build(Math.max(0, size - build(0).length));
}
