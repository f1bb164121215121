/**
 * A change of the library's folder (a move, an open, a rebuild: the `folder` operation) and an
 * archive's export or import (the `archive` operation) never run side by side. Each holds the
 * gallery's root from its start: an import beside a move writes task folders into the folder the
 * move has planned its copy of (left behind) or already left (outside the library once it
 * switched, the records naming files the library does not have); an export reads files a move
 * removes after its switch. The page can start both (Settings › Gallery folder and Library ›
 * Import), as can two commands. Real libraries and a real archive, on the core's operations that
 * the IPC handlers and the CLI both run.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OperationBusyError } from '../../../electron/core/base/operation-runner';
import {
  addTask,
  operationsOn,
  useLibraries,
} from '../../unit/core/library/archive/library-fixture';

const makeLibrary = useLibraries();

/** A promise the test settles when it chooses: an operation held under way. */
function heldOpen(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** A library of one task exported to an archive, and an empty library to import it into. */
async function archiveAndLibrary() {
  const source = await makeLibrary();
  await addTask(source, ['png', 'webp']);
  const archive = join(source.dir, 'export.zip');
  const exported = await operationsOn(source).exportArchive({
    target: archive,
    pictorVersion: '1',
  });
  expect(exported?.tasks).toBe(1);
  const library = await makeLibrary();
  return { archive, library, operations: operationsOn(library) };
}

describe('a change of the library folder and an archive operation', () => {
  it('an import or export asked for while the folder changes is refused, and runs once it is done', async () => {
    const { archive, library, operations } = await archiveAndLibrary();
    const held = heldOpen();
    const move = operations.changeFolder(() => held.promise);
    await expect(operations.importArchive(archive)).rejects.toThrow(OperationBusyError);
    await expect(
      operations.exportArchive({ target: join(library.dir, 'out.zip'), pictorVersion: '1' }),
    ).rejects.toThrow(OperationBusyError);
    expect(library.history.count({}), 'nothing imported beside the move').toBe(0);
    held.resolve();
    await move;
    const imported = await operations.importArchive(archive);
    expect(imported?.addedTasks).toBe(1);
  });

  it('a move, an open or a rebuild asked for while an import runs is refused, and runs after', async () => {
    const { archive, operations } = await archiveAndLibrary();
    const held = heldOpen();
    const importing = operations.importArchive(archive, { beforeTask: () => held.promise });
    let changed = 0;
    const change = () => {
      changed += 1;
      return Promise.resolve();
    };
    await expect(operations.changeFolder(change)).rejects.toThrow(OperationBusyError);
    await expect(operations.rebuild()).rejects.toThrow(OperationBusyError);
    expect(changed, 'no change of folder began').toBe(0);
    held.resolve();
    expect((await importing)?.addedTasks).toBe(1);
    await operations.changeFolder(change);
    expect(changed).toBe(1);
  });
});
