import { describe, expect, it } from 'vitest';
import { CliProgress } from '../../../electron/cli/cli-progress';
import { problemLine } from '../../../electron/cli/cli-report';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { makeTaskRecord } from '../../support/task-records';

const refused = {
  kind: 'auth' as const,
  message: 'The service refused the API key (401). Check the key in Settings.',
};

function lines(record: TaskRecord): string[] {
  const written: string[] = [];
  const progress = new CliProgress(
    new Set([record.localId]),
    (line) => written.push(line),
    () => 0,
  );
  progress.onUpdate({ record, live: { nextPollAt: null, polling: false, downloads: 0 } });
  const problem = problemLine(record, { command: 'pictor resume x', serviceNamed: true });
  return [...written, ...(problem ? [problem] : [])];
}

describe('CLI progress and report lines', () => {
  it('a refused submit is said once, in the words of the command line (no Settings there)', () => {
    const output = lines(
      makeTaskRecord({ localId: 'l-1', status: 'submit_failed', error: refused }, 0),
    );
    expect(output.join('').match(/refused the API key/g)).toHaveLength(1);
    expect(output.join('')).toContain('Check SERVICE_API_KEY');
    expect(output.join('')).not.toContain('Settings');
  });

  it('a task still running shows its latest trouble on its progress line', () => {
    const output = lines(
      makeTaskRecord(
        { localId: 'l-2', status: 'submitting', error: { ...refused, kind: 'network' as const } },
        0,
      ),
    );
    expect(output.join('')).toContain('Check SERVICE_API_KEY');
  });
});
