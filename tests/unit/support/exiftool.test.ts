/**
 * The kept exiftool (tests/support/exiftool.ts) answers each command as a fresh exiftool given the
 * same arguments does — the same stdout and stderr, a failure rejected with what it said — one
 * process for many commands, in the order asked; an argument its argument file cannot carry is
 * refused, never sent altered; and it exits when its input closes.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIFTOOL, endExiftool, exiftool, exiftoolRun } from '../../support/exiftool';
import { needing, pathOf, posixShell } from '../../support/tools';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const SH = posixShell();
const fresh = promisify(execFile);

let dir = '';
const files: string[] = [];
beforeAll(async () => {
  dir = await tempFolder('exiftool');
  // Names with a space, non-ASCII letters and characters the argument file means something by.
  const names = ['plain.png', 'with space é 灯台.jpg', '-not-an-option #1 @x $y.webp'];
  for (const [at, name] of names.entries()) {
    const image = sharp({ create: { width: 9, height: 7, channels: 3, background: '#369' } });
    const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>maker ${at} — ✓</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>`;
    const encoded = [image.png(), image.jpeg(), image.webp()][at]!.withXmp(xmp);
    const file = join(dir, name);
    await writeFile(file, await encoded.toBuffer());
    files.push(file);
  }
});
afterAll(async () => {
  await endExiftool();
  await removeFolder(dir);
});

describe.skipIf(!EXIFTOOL.path || !SH.path)('the kept exiftool', () => {
  it(
    needing(EXIFTOOL, 'prints what a fresh exiftool given the same arguments prints'),
    async () => {
      await endExiftool();
      // (Without the time each file was last read: reading it again changes that.)
      const commands = [
        ['-j', '-G1', '-struct', '--FileAccessDate', files[0]!],
        ['-j', '-G1', '-a', '--FileAccessDate', ...files],
        ['-validate', '-warning', '-a', '-s3', files[1]!],
        ['-j', '-n', '-Orientation', '-ImageDescription', '-XMP-dc:Creator', files[2]!],
        // A file exiftool cannot read among ones it can: status 0, a warning on stderr.
        ['-s3', '-XMP-dc:Creator', files[0]!, join(dir, 'absent.png')],
      ];
      for (const args of commands) {
        const expected = await fresh(pathOf(EXIFTOOL), args).catch(
          (error: { stdout: string; stderr: string }) => error,
        );
        const printed = await exiftoolRun(args).catch(
          (error: { stdout: string; stderr: string }) => error,
        );
        expect(printed.stdout, args.join(' ')).toBe(expected.stdout);
        expect(printed.stderr, args.join(' ')).toBe(expected.stderr);
      }
      expect((await exiftool(files[1]!))['XMP-dc:Creator']).toBe('maker 1 — ✓');
      // One process answered them all.
      expect(await endExiftool()).toMatchObject({ commands: commands.length + 1 });
    },
  );

  it('rejects with what exiftool said when its status is not 0, and answers the next command', async () => {
    const absent = join(dir, 'absent.png');
    await expect(exiftoolRun(['-j', absent])).rejects.toMatchObject({
      code: 1,
      stderr: `Error: File not found - ${absent}\n`,
    });
    await expect(exiftool(absent)).rejects.toThrow(/status 1\nError: File not found/);
    expect((await exiftool(files[0]!))['XMP-dc:Creator']).toBe('maker 0 — ✓');
  });

  it('answers commands asked at once each with its own file, in order', async () => {
    const asked = [...files, ...files, ...files].map((file) => exiftool(file));
    const read = await Promise.all(asked);
    expect(read.map((tags) => tags['SourceFile'])).toEqual([...files, ...files, ...files]);
    expect(read.map((tags) => tags['XMP-dc:Creator'])).toEqual(
      [0, 1, 2, 0, 1, 2, 0, 1, 2].map((at) => `maker ${at} — ✓`),
    );
  });

  it.each([
    ['a line break', 'file.png\n-ver'],
    ['a carriage return', 'file.png\r'],
    ['a leading #, a comment line', '#file.png'],
    ['leading white space, stripped', ' file.png'],
    ['an empty argument, skipped', ''],
    ['white space around an assignment, taken out', '-XMP-dc:Creator = me'],
  ])('refuses an argument with %s, never sending it altered', async (_what, argument) => {
    await expect(exiftoolRun(['-j', argument])).rejects.toThrow(/argument file cannot carry/);
    // Nothing half-sent: the next command reads as its own.
    expect((await exiftool(files[2]!))['XMP-dc:Creator']).toBe('maker 2 — ✓');
  });

  it('exits when its input closes, and a later command starts another', async () => {
    await exiftool(files[0]!);
    const ended = await endExiftool();
    expect(ended).not.toBeNull();
    expect(() => process.kill(ended!.pid, 0)).toThrow(/ESRCH/);
    expect(await endExiftool()).toBeNull();
    expect((await exiftool(files[0]!))['XMP-dc:Creator']).toBe('maker 0 — ✓');
    expect((await endExiftool())?.pid).not.toBe(ended!.pid);
  });
});
