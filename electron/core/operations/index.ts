/**
 * The operations module's face (electron/core/operations/): its doors are the exports below, the
 * only names other modules and the fronts import from it. The long operations, one at a time per
 * kind.
 *
 * A library move or open, a rebuild of the history from the gallery, an archive export or import, a
 * copy of chosen images and the trash's deletes and Undos are core operations (`core/operations/`),
 * after VS Code's `CancellationToken`: `OperationRunner` gives each run an `AbortSignal` and a
 * `report` for its progress, runs one at a time per kind and passes progress on at most every 100
 * ms on the `Clock` port (the last report always). A kind either refuses a second run while one is
 * under way, with its sentence (`folder`: a move, an open or a rebuild; `archive`: an export or an
 * import), or queues it (`images`; the trash's operations, on a runner of their own).
 * `PictorCore.operations` (`CoreOperations`) is what the fronts call: the app's IPC handlers and
 * the CLI's commands say what to run, where progress goes and when to stop (the page's Cancel, the
 * CLI's Ctrl+C as the run's own signal); neither keeps a slot, a signal or a throttle. A dialog
 * that chooses an archive runs inside the operation, so a second one is refused while it is open.
 * The folder the user picked for the library is kept under a one-time ticket by
 * `core/library/folder-choices.ts` (ten minutes on the clock; every pick ends the one before), and
 * taken only once the folder operation has its turn, so an apply refused while a move runs keeps
 * it. Chosen images are narrowed to their tasks' records in `core/batch/export-images.ts`, which
 * reports 0 of N before its first copy, so the window shows an export from the moment its folder is
 * chosen.
 */
export { CoreOperations } from './core-operations';
