/**
 * "Install Command Line Tool…" (macOS): the link is made only after the user agreed, never over
 * something that is not Pictor's, renewed when it is another Pictor's, and a refusal by the OS
 * ends with the command to run instead. The file operations are a fake (the permission errors
 * are injected: tests run as root here) and, once, the real node:fs in a temporary folder.
 */
import { readlink, writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMAND_LINK,
  installCommandLineTool,
  type CommandLineToolFs,
  type PathEntry,
} from '../../../../electron/app/os/command-line-tool';
import type {
  CommandLineToolPrompts,
  PromptSentence,
} from '../../../../electron/ports/user-prompts';
import { nodeCommandLineToolFs } from '../../../../electron/adapters/command-line-tool-fs';
import { mainText } from '../../../../electron/app/i18n/main-text';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const TARGET = '/Applications/Pictor.app/Contents/Resources/bin/pictor';

function fakeFs(entry: PathEntry, fail?: { on: 'symlink' | 'unlink'; code: string }) {
  const calls: string[] = [];
  const fs: CommandLineToolFs = {
    inspect: async (path) => {
      calls.push(`inspect ${path}`);
      return entry;
    },
    symlink: async (target, path) => {
      calls.push(`symlink ${target} ${path}`);
      if (fail?.on === 'symlink') throw Object.assign(new Error(fail.code), { code: fail.code });
    },
    unlink: async (path) => {
      calls.push(`unlink ${path}`);
      if (fail?.on === 'unlink') throw Object.assign(new Error(fail.code), { code: fail.code });
    },
  };
  return { fs, calls };
}

function prompts(agree: boolean) {
  const told: { sentence: PromptSentence; tone: string }[] = [];
  const asked: string[] = [];
  const value: CommandLineToolPrompts = {
    confirmInstall: async (link) => {
      asked.push(link);
      return agree;
    },
    tell: async (sentence, tone) => void told.push({ sentence, tone }),
  };
  return { value, told, asked };
}

function text(told: { sentence: PromptSentence } | undefined): string {
  return told ? mainText(told.sentence.key, { ...told.sentence.params }) : '';
}

describe('installing the pictor command', () => {
  it('asks, then links /usr/local/bin/pictor to the app’s script', async () => {
    const { fs, calls } = fakeFs({ kind: 'missing' });
    const asked = prompts(true);
    const outcome = await installCommandLineTool({ fs, prompts: asked.value, target: TARGET });
    expect(outcome.kind).toBe('installed');
    expect(asked.asked).toEqual([COMMAND_LINK]);
    expect(calls).toEqual([`inspect ${COMMAND_LINK}`, `symlink ${TARGET} ${COMMAND_LINK}`]);
    expect(asked.told[0]?.tone).toBe('info');
    expect(text(asked.told[0])).toBe(
      'The pictor command is installed at /usr/local/bin/pictor. Open a new Terminal window and type: pictor help',
    );
  });

  it('creates nothing and says nothing when the user cancels', async () => {
    const { fs, calls } = fakeFs({ kind: 'missing' });
    const asked = prompts(false);
    expect(await installCommandLineTool({ fs, prompts: asked.value, target: TARGET })).toEqual({
      kind: 'cancelled',
    });
    expect(calls).toEqual([`inspect ${COMMAND_LINK}`]);
    expect(asked.told).toEqual([]);
  });

  it('says it is there already when the link starts this copy', async () => {
    const { fs, calls } = fakeFs({ kind: 'link', target: TARGET });
    const asked = prompts(true);
    const outcome = await installCommandLineTool({ fs, prompts: asked.value, target: TARGET });
    expect(outcome.kind).toBe('already');
    expect(asked.asked).toEqual([]);
    expect(calls).toEqual([`inspect ${COMMAND_LINK}`]);
  });

  it('renews a link to another copy of Pictor, after asking', async () => {
    const old = '/Users/ada/Downloads/Pictor 2.app/Contents/Resources/bin/pictor';
    const { fs, calls } = fakeFs({ kind: 'link', target: old });
    const asked = prompts(true);
    const outcome = await installCommandLineTool({ fs, prompts: asked.value, target: TARGET });
    expect(outcome.kind).toBe('installed');
    expect(calls).toEqual([
      `inspect ${COMMAND_LINK}`,
      `unlink ${COMMAND_LINK}`,
      `symlink ${TARGET} ${COMMAND_LINK}`,
    ]);
  });

  it.each([
    ['a file', { kind: 'other' } as const],
    ['a link to another program', { kind: 'link', target: '/opt/homebrew/bin/pictor' } as const],
  ])('refuses to replace %s, without asking, and says why', async (_what, entry) => {
    const { fs, calls } = fakeFs(entry);
    const asked = prompts(true);
    const outcome = await installCommandLineTool({ fs, prompts: asked.value, target: TARGET });
    expect(outcome.kind).toBe('not-pictors');
    expect(asked.asked).toEqual([]);
    expect(calls).toEqual([`inspect ${COMMAND_LINK}`]);
    expect(asked.told[0]?.tone).toBe('warning');
    expect(text(asked.told[0])).toBe(
      '/usr/local/bin/pictor already exists and is not Pictor’s, so Pictor left it as it is.',
    );
  });

  it.each(['EACCES', 'EPERM', 'ENOENT'])(
    'turns %s into the command to run in Terminal, quoted',
    async (code) => {
      const target = "/Applications/Ada's Apps/Pictor.app/Contents/Resources/bin/pictor";
      const { fs } = fakeFs({ kind: 'missing' }, { on: 'symlink', code });
      const asked = prompts(true);
      const outcome = await installCommandLineTool({ fs, prompts: asked.value, target });
      expect(outcome.kind).toBe('denied');
      expect(text(asked.told[0])).toBe(
        "Pictor is not allowed to create /usr/local/bin/pictor. To install the command, run this in Terminal: sudo mkdir -p '/usr/local/bin' && sudo ln -sf '/Applications/Ada'\\''s Apps/Pictor.app/Contents/Resources/bin/pictor' '/usr/local/bin/pictor'",
      );
    },
  );

  it('leaves something made in between alone (the link is created exclusively)', async () => {
    const { fs, calls } = fakeFs({ kind: 'missing' }, { on: 'symlink', code: 'EEXIST' });
    const outcome = await installCommandLineTool({
      fs,
      prompts: prompts(true).value,
      target: TARGET,
    });
    expect(outcome.kind).toBe('not-pictors');
    expect(calls.filter((call) => call.startsWith('unlink'))).toEqual([]);
  });

  it('names any other error', async () => {
    const { fs } = fakeFs({ kind: 'missing' }, { on: 'symlink', code: 'EROFS' });
    const asked = prompts(true);
    await installCommandLineTool({ fs, prompts: asked.value, target: TARGET });
    expect(text(asked.told[0])).toBe('Pictor could not create /usr/local/bin/pictor (EROFS).');
  });
});

describe('on a real disk (node:fs)', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await tempFolder('cli-tool');
  });
  afterAll(async () => {
    await removeFolder(dir);
  });

  /** The install on node:fs, the user agreeing, the link at `link`. */
  const installAt = (link: string) =>
    installCommandLineTool({
      fs: nodeCommandLineToolFs,
      prompts: prompts(true).value,
      target: TARGET,
      link,
    });

  it('links, then finds its own link, and never touches a file of someone else', async () => {
    const link = join(dir, 'pictor');
    expect((await installAt(link)).kind).toBe('installed');
    expect(await readlink(link)).toBe(TARGET);
    expect((await installAt(link)).kind).toBe('already');

    const theirs = join(dir, 'theirs');
    await writeFile(theirs, 'someone else’s pictor');
    expect((await installAt(theirs)).kind).toBe('not-pictors');
    expect(await readFile(theirs, 'utf8')).toBe('someone else’s pictor');
  });
});
