import { describe, expect, it } from 'vitest';
import {
  UsageError,
  editDistance,
  nearestOption,
  parseCommandLine,
} from '../../../../electron/core/command-line/command-line';

const OPTIONS = {
  prompt: { type: 'string' },
  'base-url': { type: 'string' },
  port: { type: 'string' },
  all: { type: 'boolean' },
} as const;

function usage(argv: string[], positionals = false): string {
  try {
    parseCommandLine(argv, OPTIONS, positionals);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`accepted: ${argv.join(' ')}`);
}

describe('command-line parsing shared by pictor and the demo service', () => {
  it('counts edits, a swap of two neighbours as one', () => {
    expect(editDistance('prompt', 'prompt')).toBe(0);
    expect(editDistance('promt', 'prompt')).toBe(1);
    expect(editDistance('porpmt', 'prompt')).toBe(2);
    expect(editDistance('', 'all')).toBe(3);
  });

  it('suggests a real option only for a near miss', () => {
    expect(nearestOption('--promt', Object.keys(OPTIONS))).toBe('prompt');
    expect(nearestOption('--base-ulr', Object.keys(OPTIONS))).toBe('base-url');
    expect(nearestOption('--PORT', Object.keys(OPTIONS))).toBe('port');
    expect(nearestOption('--sk-0123456789abcdef', Object.keys(OPTIONS))).toBeNull();
    expect(nearestOption('--xyz', Object.keys(OPTIONS))).toBeNull();
    expect(nearestOption('-', Object.keys(OPTIONS))).toBeNull();
  });

  it('says what went wrong without repeating what was typed', () => {
    expect(usage(['--promt', 'x'])).toBe('Unknown option. Did you mean --prompt?');
    expect(usage(['--sk-secret-value'])).toBe('Unknown option.');
    expect(usage(['sk-secret-value'])).toMatch(/^Unexpected argument/);
    expect(usage(['--port'])).toBe('--port needs a value.');
    expect(usage(['--all=yes'])).toBe('--all takes no value.');
    for (const message of [usage(['--sk-secret-value']), usage(['sk-secret-value'])]) {
      expect(message).not.toContain('secret');
    }
  });

  it('gives the values and positionals it was asked for', () => {
    const { values, positionals } = parseCommandLine(
      ['list', '--all', '--port', '80'],
      OPTIONS,
      true,
    );
    expect(values).toEqual({ all: true, port: '80' });
    expect(positionals).toEqual(['list']);
  });
});
