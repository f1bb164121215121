/**
 * Names from a file or a service cannot reorder, hide or break a line: the one cleaner
 * (shared/text/shown-name.ts) and every schema and reader that takes such a name, each checked
 * against every Unicode bidi control (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), every
 * format character (category Cf), the line and paragraph separators, the controls and lone
 * surrogate halves, mixed into any text (fast-check). A certificate's `O=<RLO>IAnepO` is the case
 * the last round found: it read "OpenAI" in the window's "Signed by …".
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verdictOf } from '../../../shared/content-credentials/c2pa-verdict';
import {
  MAX_CREDENTIAL_NAME_CHARS,
  contentCredentialsSchema,
  credentialVerdictSchema,
} from '../../../shared/domain/content-credentials';
import { REQUEST_LIMITS } from '../../../shared/domain/limits';
import { taskRecordSchema } from '../../../shared/domain/task-record';
import { generationRequestSchema, readReportedModel } from '../../../shared/service/wire';
import { cleanName, shownNameSchema } from '../../../shared/text/shown-name';
import { makeTaskRecord } from '../../support/task-records';

/** Every code point of Unicode's format category (Cf), found by asking the engine. */
function formatCharacters(): string[] {
  const found: string[] = [];
  for (let code = 0; code <= 0x10ffff; code += 1) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const char = String.fromCodePoint(code);
    if (/^\p{Cf}$/u.test(char)) found.push(char);
  }
  return found;
}

const BIDI = [
  '\u061c',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
].concat(['\u2066', '\u2067', '\u2068', '\u2069']);
const FORMAT = formatCharacters();
const SEPARATORS = ['\u2028', '\u2029'];
const CONTROLS = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)).concat(
  Array.from({ length: 0x21 }, (_, code) => String.fromCharCode(0x7f + code)),
);
const SURROGATE_HALVES = ['\ud800', '\udbff', '\udc00', '\udfff'];
const HIDDEN = [...new Set([...BIDI, ...FORMAT, ...SEPARATORS, ...CONTROLS, ...SURROGATE_HALVES])];
/** Any of them, anywhere in a string (code units, so a pair may be split as an attacker would). */
const HIDDEN_ANYWHERE = new RegExp(
  `[${HIDDEN.map((char) => `\\u{${char.codePointAt(0)!.toString(16)}}`).join('')}]`,
  'u',
);
const hexOf = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase()}`;

/** Text with the hidden characters mixed in: letters of any script, spaces, and each of them. */
const hostileName = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...HIDDEN) },
      { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
      { weight: 1, arbitrary: fc.constantFrom('OpenAI', 'IAnepO', 'مرحبا', 'שלום', ' ', '.png') },
    ),
    { minLength: 1, maxLength: 24 },
  )
  .map((parts) => parts.join(''));

describe('the set the names are cleaned of', () => {
  it('holds every bidi control and is Cf', () => {
    expect(FORMAT.length).toBeGreaterThan(150);
    for (const char of BIDI) expect(FORMAT, hexOf(char)).toContain(char);
  });
});

describe('the cleaner', () => {
  it('takes out each hidden character, wherever it stands', () => {
    for (const char of HIDDEN) {
      expect(cleanName(`Open${char}AI`, MAX_CREDENTIAL_NAME_CHARS), hexOf(char)).toBe('OpenAI');
      expect(cleanName(char, MAX_CREDENTIAL_NAME_CHARS), hexOf(char)).toBeUndefined();
    }
  });

  it('leaves any name one clean line, at most the limit, cleaned once for all', () => {
    fc.assert(
      fc.property(hostileName, fc.integer({ min: 1, max: 60 }), (text, max) => {
        const clean = cleanName(text, max);
        if (clean === undefined) return;
        expect(clean).not.toMatch(HIDDEN_ANYWHERE);
        expect(clean.length).toBeLessThanOrEqual(max);
        expect(clean).toBe(clean.trim());
        expect(cleanName(clean, max)).toBe(clean);
      }),
      { numRuns: 2_000 },
    );
  });

  it('shows the certificate that reads "OpenAI" as what it holds', () => {
    expect(cleanName('\u202eIAnepO\u202c Ltd', 200)).toBe('IAnepO Ltd');
  });
});

describe('every schema that reads such a name', () => {
  it('cleans a name read back, or refuses one with nothing left', () => {
    fc.assert(
      fc.property(hostileName, (text) => {
        const parsed = shownNameSchema(MAX_CREDENTIAL_NAME_CHARS).safeParse(text);
        if (parsed.success) expect(parsed.data).not.toMatch(HIDDEN_ANYWHERE);
        else expect(cleanName(text, MAX_CREDENTIAL_NAME_CHARS)).toBeUndefined();
      }),
      { numRuns: 1_000 },
    );
  });

  it('keeps no hidden character in a recorded signer or generator (history, sidecar, archive)', () => {
    fc.assert(
      fc.property(hostileName, hostileName, (signer, generator) => {
        const recorded = { state: 'valid', signer, generator, trusted: true, aiGenerated: true };
        const parsed = contentCredentialsSchema().safeParse(recorded);
        if (!parsed.success) return;
        expect(JSON.stringify(parsed.data)).not.toMatch(HIDDEN_ANYWHERE);
        expect(parsed.data).toMatchObject({ signer: cleanName(signer, 200) });
      }),
      { numRuns: 1_000 },
    );
  });

  it('refuses a verifier answer whose name holds any hidden character', () => {
    for (const char of HIDDEN) {
      const answer = { state: 'valid', signer: `Open${char}AI`, trusted: true, aiGenerated: true };
      expect(credentialVerdictSchema().safeParse(answer).success, hexOf(char)).toBe(false);
      const invalid = { state: 'invalid', codes: [], signer: `Open${char}AI` };
      expect(credentialVerdictSchema().safeParse(invalid).success, hexOf(char)).toBe(false);
    }
  });

  it('keeps no hidden character in a task’s models, and keeps the task', () => {
    fc.assert(
      fc.property(hostileName, hostileName, (asked, reported) => {
        const record = makeTaskRecord({ request: { prompt: 'p', model: asked } });
        const parsed = taskRecordSchema().safeParse({ ...record, reportedModel: reported });
        if (asked.length > REQUEST_LIMITS.model) return;
        expect(parsed.success).toBe(true);
        const { request, reportedModel } = parsed.data!;
        expect(request.model ?? '').not.toMatch(HIDDEN_ANYWHERE);
        expect(request.model).toBe(cleanName(asked, REQUEST_LIMITS.model));
        // The model a service reports is taken as it was said (trimmed) or not at all.
        expect(reportedModel ?? '').not.toMatch(HIDDEN_ANYWHERE);
        expect(reportedModel).toBe(readReportedModel(reported));
        if (reportedModel !== undefined) expect(reportedModel).toBe(reported.trim());
      }),
      { numRuns: 1_000 },
    );
  });

  it('cleans the model a request asks for, and leaves it out when nothing is left', () => {
    for (const char of HIDDEN) {
      const parsed = generationRequestSchema().parse({ prompt: 'p', model: `gpt${char}-image` });
      expect(parsed.model, hexOf(char)).toBe('gpt-image');
      expect(generationRequestSchema().parse({ prompt: 'p', model: char }).model).toBeUndefined();
    }
  });
});

describe('the Content Credentials reader', () => {
  it('keeps no hidden character in the signer or the generator a manifest names', () => {
    fc.assert(
      fc.property(hostileName, hostileName, (issuer, generator) => {
        const verdict = verdictOf({
          active_manifest: 'urn:m',
          manifests: {
            'urn:m': {
              claim_generator: generator,
              signature_info: { issuer },
              assertions: [],
            },
          },
          validation_state: 'Valid',
        });
        expect(JSON.stringify(verdict)).not.toMatch(HIDDEN_ANYWHERE);
        expect(credentialVerdictSchema().safeParse(verdict).success).toBe(true);
      }),
      { numRuns: 1_000 },
    );
  });

  it('reads the certificate that says "OpenAI" backwards as what it holds', () => {
    const verdict = verdictOf({
      active_manifest: 'urn:m',
      manifests: { 'urn:m': { signature_info: { issuer: '\u202eIAnepO' } } },
      validation_state: 'Trusted',
    });
    expect(verdict).toMatchObject({ state: 'valid', signer: 'IAnepO', trusted: true });
  });
});
