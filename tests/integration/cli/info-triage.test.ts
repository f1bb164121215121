/**
 * `pictor info` shows what the library says of the image: its rating, flag, tags and boards, in
 * text and in `--json` (`library`), and says when the image is not in the library at --data-dir.
 */
import { existsSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliDemoTask, type CliDemoTask } from '../../support/cli-in-process';

let demo: CliDemoTask;

beforeAll(async () => {
  demo = await cliDemoTask();
  const ref = demo.localId;
  await demo.run(['rate', ref, '4']);
  await demo.run(['flag', ref, 'pick']);
  await demo.run(['tag', 'add', 'fox', ref]);
  await demo.run(['tag', 'add', 'dusk', ref]);
  await demo.run(['board', 'create', 'Clients/Acme']);
  await demo.run(['board', 'add', 'Clients/Acme', ref]);
  return demo.remove;
}, 60_000);

describe('pictor info', () => {
  it('shows the rating, flag, tags and boards the library has for the image', async () => {
    const text = await demo.run(['info', demo.file]);
    expect(text.stdout).toContain('  Rating: 4 of 5\n');
    expect(text.stdout).toContain('  Flag: pick\n');
    expect(text.stdout).toMatch(/ {2}Tags: (fox, dusk|dusk, fox)\n/);
    expect(text.stdout).toContain('  Boards: Clients/Acme');
    // The task's service as `list` names it, with the origin the file records.
    expect(text.stdout).toContain('  Service: demo (demo:)\n');
    const json = JSON.parse((await demo.run(['info', demo.file, '--json'])).stdout) as {
      library: {
        rating: number;
        flag: string;
        tags: string[];
        boards: string[];
        service: string;
      } | null;
    };
    expect(json.library).toMatchObject({
      rating: 4,
      flag: 'pick',
      boards: ['Clients/Acme'],
      service: 'demo',
    });
    expect([...(json.library?.tags ?? [])].sort()).toEqual(['dusk', 'fox']);
  });

  it('says when the image is not in the library, and makes no library', async () => {
    const copy = join(demo.home, 'copy.png');
    await copyFile(demo.file, copy);
    const elsewhere = join(demo.home, 'no-library');
    const text = await demo.run(['info', copy], 0, elsewhere);
    expect(text.stdout).toContain(`  Library: not in the library at ${elsewhere}\n`);
    // Named from the file's recorded origin alone.
    expect(text.stdout).toContain('  Service: demo (demo:)\n');
    const json = JSON.parse((await demo.run(['info', copy, '--json'], 0, elsewhere)).stdout) as {
      library: unknown;
    };
    expect(json.library).toBeNull();
    expect(existsSync(elsewhere)).toBe(false);
  });
});
