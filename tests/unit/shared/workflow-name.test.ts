/**
 * A ComfyUI workflow's name, the one rule (shared/domain/workflow-name.ts) over the classes of
 * names a file name breaks on some system: a Windows device before the first dot (`CON`, `nul`,
 * `aux.json`, `COM1.v2`, `LPT9`), a trailing dot or space, an invisible character, a look-alike,
 * another script's letters, a composed or decomposed accent, a path. Each is refused as a new
 * name with its own reason and sentence; a name an older Pictor kept (its letters only, `CON`
 * among them) is still one the book reads, lists and removes.
 */
import { describe, expect, it } from 'vitest';
import {
  isKeptWorkflowName,
  isWorkflowName,
  workflowNameProblem,
  workflowNameRefusal,
  type WorkflowNameProblem,
} from '../../../shared/domain/workflow-name';

/** Names a new workflow may take. */
const ACCEPTED = [
  'portrait',
  'Portrait',
  'sdxl-1.0_refiner',
  '0',
  'a'.repeat(64),
  'console',
  'connect',
  'nul-free',
  'auxiliary.v2',
  'COM10',
  'LPT10',
  'com-1',
  'prn_4',
  'CONOUT',
];

/** Names a new workflow may not take, each with the reason the rule gives. */
const REFUSED: ReadonlyArray<readonly [string, WorkflowNameProblem]> = [
  // A device, whatever the case and whatever follows the first dot (the file is `<name>.json`).
  ['CON', 'device'],
  ['con', 'device'],
  ['Con', 'device'],
  ['PRN', 'device'],
  ['AUX', 'device'],
  ['aux.json', 'device'],
  ['NUL', 'device'],
  ['nul.tar.gz', 'device'],
  ['COM0', 'device'],
  ['COM1', 'device'],
  ['com9.v2', 'device'],
  ['LPT1', 'device'],
  ['lpt9', 'device'],
  // What Windows drops from a file's name.
  ['portrait.', 'ending'],
  ['portrait ', 'ending'],
  ['portrait. ', 'ending'],
  ['CON.', 'ending'],
  // Invisible characters, alone or inside a name that shows as another.
  ['port\u200brait', 'invisible'],
  ['portrait\u200d', 'invisible'],
  ['\u2060portrait', 'invisible'],
  ['port\u00adrait', 'invisible'],
  ['portrait\ufe0f', 'invisible'],
  ['\u202eportrait', 'invisible'],
  ['a\u3164b', 'invisible'],
  // Not the letters: case and Unicode twins cannot be spelled (`é` either way), nor a path.
  ['', 'form'],
  ['a'.repeat(65), 'form'],
  ['portr\u00e9t', 'form'],
  ['portre\u0301t', 'form'],
  ['\u212aelvin', 'form'],
  ['\uff30ortrait', 'form'],
  ['p\u043ertrait', 'form'],
  ['.hidden', 'form'],
  ['-x', 'form'],
  ['a..b', 'form'],
  ['..', 'form'],
  ['a/b', 'form'],
  ['a\\b', 'form'],
  ['a:b', 'form'],
  ['a b', 'form'],
  ['CON\u0000', 'form'],
  ['CONIN$', 'form'],
  ['COM\u00b9', 'form'],
];

describe('a new workflow name', () => {
  it.each(ACCEPTED)('%j is one', (name) => {
    expect(workflowNameProblem(name)).toBeNull();
    expect(isWorkflowName(name)).toBe(true);
    expect(isKeptWorkflowName(name)).toBe(true);
  });

  it.each(REFUSED)('%j is refused: %s', (name, problem) => {
    expect(workflowNameProblem(name)).toBe(problem);
    expect(isWorkflowName(name)).toBe(false);
  });

  it('is refused with one sentence a reason, naming no name', () => {
    const reasons: WorkflowNameProblem[] = ['form', 'device', 'ending', 'invisible'];
    const said = reasons.map(workflowNameRefusal);
    expect(new Set(said).size).toBe(reasons.length);
    expect(workflowNameRefusal('device')).toMatch(
      /CON, PRN, AUX, NUL, COM0 to COM9 or LPT0 to LPT9/,
    );
  });
});

describe('a kept workflow name (an older Pictor’s)', () => {
  it.each(REFUSED.filter(([, problem]) => problem === 'device'))(
    '%j, a device, is still one the book reads and removes',
    (name) => {
      expect(isKeptWorkflowName(name)).toBe(true);
    },
  );

  it.each(REFUSED.filter(([, problem]) => problem !== 'device'))(
    '%j is none (an older Pictor refused it too)',
    (name) => {
      expect(isKeptWorkflowName(name)).toBe(false);
    },
  );
});
