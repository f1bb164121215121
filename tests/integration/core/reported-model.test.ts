/**
 * The model a task reports, through the real core against the demo service
 * over loopback: recorded from the submit and the polls, written to the sidecar and the history,
 * listed by the gallery's model filter (the filter matches it), and kept apart from what was asked.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL } from '../../../electron/demo-service/request-validation';
import { parseSidecar } from '../../../electron/core/gallery/sidecar';
import { clockedCoreAgainstDemo as coreAgainstDemo } from './core-harness';

describe('the model the service reports', () => {
  it('is recorded, written to the sidecar and listed by the model filter when none was asked', async () => {
    const h = await coreAgainstDemo();
    h.core.engine.start();
    const [submitted] = await h.core.engine.submit({ prompt: 'a red kite' }, h.target);
    const [done] = await h.settle([submitted!.localId]);
    expect(done!.status).toBe('completed');
    expect(done!.request.model).toBeUndefined();
    expect(done!.reportedModel).toBe(DEFAULT_MODEL);
    expect(h.core.history.get(done!.localId)?.reportedModel).toBe(DEFAULT_MODEL);
    const sidecar = parseSidecar(
      readFileSync(h.core.gallery.resolve(`${done!.folder}/pictor.json`), 'utf8'),
    );
    expect(sidecar.ok && sidecar.record.reportedModel).toBe(DEFAULT_MODEL);
    expect(h.core.history.imageModels()).toEqual([DEFAULT_MODEL]);
    const page = h.core.history.listImages({
      model: DEFAULT_MODEL,
      states: ['saved'],
      cursor: null,
    });
    expect(page.items.map((item) => [item.localId, item.model, item.reportedModel])).toEqual([
      [done!.localId, undefined, DEFAULT_MODEL],
    ]);
  });

  it('keeps the asked model beside the reported one, and survives a reopen of the history', async () => {
    const h = await coreAgainstDemo();
    h.core.engine.start();
    const [submitted] = await h.core.engine.submit(
      { prompt: 'a blue kite', model: 'sketch-2' },
      h.target,
    );
    const [done] = await h.settle([submitted!.localId]);
    // The demo answers with the model it was asked for.
    expect(done).toMatchObject({ request: { model: 'sketch-2' }, reportedModel: 'sketch-2' });
    await h.restart();
    expect(h.core.history.get(done!.localId)).toMatchObject({
      request: { model: 'sketch-2' },
      reportedModel: 'sketch-2',
    });
    expect(h.core.history.imageModels()).toEqual(['sketch-2']);
  });
});
