/**
 * The resume line of a task names a service only when it is the one the user named with
 * --base-url in this run: never an address a record gave (an archive's, a crafted sidecar's),
 * whatever it looks like, however close to the user's own it is.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { problemLine, resumeCommand, resumeLineFor } from '../../../electron/cli/resume-lines';
import { shellQuote } from '../../../electron/cli/terminal-text';
import { serviceBaseUrl } from '../../../electron/core/service/key-binding';
import type { TaskRecord } from '../../../shared/domain/task-record';
import {
  BIDI_CONTROLS,
  CONTROL_CHARACTERS,
  LINE_SEPARATORS,
  anyOf,
} from '../../../shared/text/control-characters';
import { makeTaskRecord } from '../../support/task-records';
import { SHELLS, commandsRunBy, outsidePosixQuotes } from '../../support/shells';
import { needing } from '../../support/tools';

const NAMED = 'https://gateway.example/team-a';
const WHERE = { dataDir: '/d', galleryDir: '/g', platform: 'linux' as const };
const NAMED_ARGUMENT = `--base-url ${shellQuote(NAMED, 'linux')} `;

/** Record endpoints an archive could carry: the user's own base URL and everything near it. */
const ENDPOINTS = [
  NAMED,
  `${NAMED}/`,
  `${NAMED}/v1`,
  'HTTPS://GATEWAY.EXAMPLE:443/team-a',
  'https://gateway.example/team-b',
  'https://gateway.example/team-a/sub',
  'https://gateway.example/team-a/..%2Fteam-b',
  'https://gateway.example',
  'https://gateway.example.attacker.test/team-a',
  'https://attacker.example/v1',
  'https://attacker.example/team-a',
  "https://attacker.example/'$(id)'",
  'http://127.0.0.1:8080',
  'http://a.localhost:8080',
  'demo:',
  'not a url',
];

/** The problem line of an unfinished task (waiting for a key unless `hold` says otherwise). */
function waitingLine(overrides: Partial<TaskRecord>): string | null {
  const record = makeTaskRecord({ status: 'processing', hold: 'awaiting_key', ...overrides });
  return problemLine(record, resumeLineFor(record, { ...WHERE, namedBaseUrl: NAMED }));
}

describe('resumeLineFor', () => {
  it('puts --base-url in the command only for the base URL named in this run', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ENDPOINTS),
        fc.constantFrom(NAMED, null),
        fc.string({ minLength: 1, maxLength: 20 }),
        (endpoint, named, taskId) => {
          const record = makeTaskRecord({ endpoint, taskId, status: 'processing' });
          const line = resumeLineFor(record, { ...WHERE, namedBaseUrl: named });
          const onNamed = named !== null && serviceBaseUrl(endpoint) === named;
          expect(line.command.includes(' --base-url '), endpoint).toBe(onNamed);
          if (onNamed) expect(line.command).toContain(NAMED_ARGUMENT);
          for (const stranger of ['attacker', 'team-b', 'sub', '127.0.0.1', 'localhost']) {
            expect(line.command, endpoint).not.toContain(stranger);
          }
          expect(line.serviceNamed).toBe(onNamed || endpoint === 'demo:');
        },
      ),
      { numRuns: 400 },
    );
  });

  it('asks the user to add the address themselves when the task is not on the named service', () => {
    const line = waitingLine({ endpoint: 'https://attacker.example/v1', taskId: 'hostile' });
    expect(line).toMatch(/add --base-url and its service's address, typed by you/);
    expect(line).not.toMatch(/Resume with:/);
    expect(line).not.toContain('attacker.example');
    const ownLine = waitingLine({ endpoint: NAMED, taskId: 'mine', hold: null });
    expect(ownLine).toContain('Resume with: ');
    expect(ownLine).toContain(NAMED_ARGUMENT);
  });

  it('offers no command for an imported task on this computer, which is never contacted', () => {
    const line = waitingLine({ endpoint: 'http://127.0.0.1:8080', taskId: 'l', imported: true });
    expect(line).toMatch(/The id is kept\.$/);
    expect(line).not.toContain('resume');
  });
});

/** Folders and an id holding what a terminal acts on (ESC, TAB, bidi, a line separator). */
const CONTROLLED = {
  target: "task-\u001b[2J'x",
  dataDir: '/home/u/data\tdir',
  galleryDir: '/home/u/\u202egallery\u2028',
  baseUrl: 'https://gateway.example/a b',
};

describe('the resume command with a control in a value', () => {
  const line = resumeCommand({ ...CONTROLLED, program: 'pictor', platform: 'linux' });

  it('holds nothing fish before 3.4 refuses: no $( outside quotes', () => {
    expect(outsidePosixQuotes(line)).not.toMatch(/\$\(|`/);
    expect(line).not.toMatch(anyOf([CONTROL_CHARACTERS, BIDI_CONTROLS, LINE_SEPARATORS]));
  });

  describe.each(SHELLS)('pasted into $name', (shell) => {
    it.skipIf(!shell.path)(needing(shell, 'gives pictor every value as written'), () => {
      expect(commandsRunBy(shell, line)).toEqual([
        [
          'pictor',
          'resume',
          CONTROLLED.target,
          '--base-url',
          CONTROLLED.baseUrl,
          '--data-dir',
          CONTROLLED.dataDir,
          '--gallery-dir',
          CONTROLLED.galleryDir,
        ],
      ]);
    });
  });
});
