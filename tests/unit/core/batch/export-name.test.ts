import { describe, expect, it } from 'vitest';
import { exportName } from '../../../../electron/core/batch/export-files';
import { batchRecords } from '../../../../electron/core/engine/submit-batch';
import { makeTaskRecord } from '../../../support/task-records';

describe('exportName', () => {
  it('names a copy after its task folder and image', () => {
    expect(exportName('/g/2026/01/2026-01-15_120000_a-fox_abcd1234/image-2.png')).toBe(
      '2026-01-15_120000_a-fox_abcd1234-image-2.png',
    );
  });

  it.each([
    ['/g/../../etc/passwd', /^[A-Za-z0-9][A-Za-z0-9._-]*$/],
    ['/g/x/.bashrc', /^[A-Za-z0-9][A-Za-z0-9._-]*$/],
    ['/g/../..', /^[A-Za-z0-9][A-Za-z0-9._-]*$/],
    ['/g/dossier é/ímage 1.PNG', /^[A-Za-z0-9][A-Za-z0-9._-]*\.PNG$/],
    ['/g/a\u0000b/c\nd.png', /^[A-Za-z0-9][A-Za-z0-9._-]*\.png$/],
  ])('keeps %j to one safe file name', (file, shape) => {
    const name = exportName(file);
    expect(name).toMatch(shape);
    expect(name).not.toContain('/');
    expect(name).not.toContain('..');
    expect(name.length).toBeLessThanOrEqual(130);
  });
});

describe('batchRecords', () => {
  let seq = 0;
  const make = () => makeTaskRecord({ localId: `t${(seq += 1)}` });

  it("stamps a submit of several with the first task's id, and leaves a submit of one alone", () => {
    const three = batchRecords([{ prompt: 'a' }], 3, make);
    expect(three.map((record) => record.batchId)).toEqual([
      three[0]!.localId,
      three[0]!.localId,
      three[0]!.localId,
    ]);
    expect(batchRecords([{ prompt: 'a' }], 1, make)[0]!.batchId).toBeUndefined();
  });

  it("puts each request's copies side by side, every one in the one batch", () => {
    const made = batchRecords([{ prompt: 'a' }, { prompt: 'b' }], 2, (request) =>
      makeTaskRecord({ localId: `t${(seq += 1)}`, request }),
    );
    expect(made.map((record) => record.request.prompt)).toEqual(['a', 'a', 'b', 'b']);
    expect(new Set(made.map((record) => record.batchId))).toEqual(new Set([made[0]!.localId]));
  });
});
