/**
 * A process that rates every image of its library (core.triage.apply, as the window's keys do)
 * and is killed (SIGKILL, by itself) inside the batch's write: after `killAt` of its tasks were
 * written in the open transaction, before the commit. Used by kill-mid-batch.test.ts.
 */
import { join } from 'node:path';
import { systemClock } from '../../../electron/adapters/system-clock';
import { openPictorCore } from '../../../electron/core/pictor-core';
import { StaticCredentials } from '../../fakes/static-credentials';
import { testImageEngine } from '../../support/image-engine';

const [dir = '', killAtText = '0'] = process.argv.slice(2);
const killAt = Number(killAtText);
const core = await openPictorCore({
  imageEngine: testImageEngine,
  dataDir: join(dir, 'data'),
  galleryDir: join(dir, 'gallery'),
  fetch,
  credentials: new StaticCredentials('http://127.0.0.1:9', null),
  clock: systemClock,
});
const ids = core.history.taskIds({}, Number.MAX_SAFE_INTEGER);
const editMany = core.engine.editMany.bind(core.engine);
// The engine's edit as the batch runs it, with a kill once `killAt` tasks were changed.
core.engine.editMany = (localIds, change, alongside) => {
  let changed = 0;
  return editMany(
    localIds,
    (record) => {
      if (changed === killAt) process.kill(process.pid, 'SIGKILL');
      changed += 1;
      return change(record);
    },
    alongside,
  );
};
core.triage.apply(
  ids.map((localId) => ({ localId, index: 0 })),
  { kind: 'rating', rating: 5 },
);
process.stdout.write('not killed\n');
await core.close();
