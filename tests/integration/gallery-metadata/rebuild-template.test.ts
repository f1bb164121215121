/**
 * A task made from a prompt template keeps its template when `rebuild` makes it again from its
 * images (its pictor.json gone): from a PNG's and a WebP's own XMP, and from the XMP sidecar of an
 * image with Content Credentials, so "Run again with…" expands the same prompts. A crafted image
 * whose template is damaged gives its task back without the template, and a note names the task
 * by its local id alone.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandedPrompts } from '../../../electron/core/batch/template-run-parts';
import { embedProvenanceInBuffer } from '../../../electron/core/gallery/metadata/embed';
import { rebuildLibrary } from '../../../electron/core/library/rebuild-verified';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { TaskTemplate } from '../../../shared/domain/task-template';
import { c2paFixture } from '../../support/c2pa-hostile';
import { makeRecord, serve } from '../../support/gallery-helpers';
import { memoryTemplates } from '../../support/template-source';
import {
  ENCODINGS,
  makeEncoded,
  sampleProvenance,
} from '../../unit/core/gallery/metadata/meta-helpers';
import { galleryPerTest } from '../../support/gallery-per-test';

const TEMPLATE_ID = '0b6f1d7e-3c1a-4c55-9a0e-2f1d3c4b5a61';
const source = memoryTemplates(
  [
    {
      id: TEMPLATE_ID,
      name: 'Colours',
      body: 'a {red|green|blue} __animals__ in {{place=the park}}, {{prompt}}',
    },
  ],
  { animals: ['cat', 'dog', 'heron'] },
);

/** A random run of the template, as main plans it: its prompts and what each record keeps. */
function run(values: Record<string, string>, prompt: string, seed: number) {
  return expandedPrompts(source, {
    templateId: TEMPLATE_ID,
    values,
    prompt,
    mode: { kind: 'random', count: 3, seed },
    count: 1,
  });
}

const fixture = galleryPerTest({ imageMetadata: { appVersion: '4.5.6' } });

/** A task of the run's first prompt, its images `bodies` downloaded; no pictor.json written. */
async function downloadTask(bodies: Array<[string, Buffer]>): Promise<TaskRecord> {
  const planned = run({ place: 'a garden --> <![CDATA[x]]>' }, 'at dawn & dusk', 424_242);
  const tag = fixture.root.slice(-6);
  const record = makeRecord(
    bodies.map(([name, bytes]) => fixture.server.route(`/${name}-${tag}`, serve(bytes))),
    { request: { prompt: planned.prompts[0]!, size: '64x48' }, template: planned.record },
  );
  for (const index of bodies.keys()) {
    expect((await fixture.intake.downloadImage(record, index, fixture.server.baseUrl)).state).toBe(
      'saved',
    );
  }
  return record;
}

/** The one task rebuild finds; nothing skipped, no note. */
async function rebuiltOnly(): Promise<TaskRecord> {
  const { records, skipped, notes } = await rebuildLibrary(fixture.intake);
  expect(skipped).toEqual([]);
  expect(notes).toEqual([]);
  expect(records).toHaveLength(1);
  return records[0]!;
}

/** "Run again with…": the task's template, values, mode and seed into the form, the run planned. */
function runAgain(template: TaskTemplate) {
  const { prompt = '', ...values } = template.values;
  expect(template.mode).toBe('random');
  return run(values, prompt, template.seed!);
}

describe('a task made from a template, its pictor.json gone', () => {
  it('gets its template back from a PNG’s and a WebP’s XMP, and runs again to the same prompts', async () => {
    const record = await downloadTask([
      ['a.png', await makeEncoded(ENCODINGS[0]!, 64, 48)],
      ['b.webp', await makeEncoded(ENCODINGS[2]!, 32, 24)],
    ]);
    expect(record.template?.seed).toBe(424_242);
    const rebuilt = await rebuiltOnly();
    expect(rebuilt).toMatchObject({ localId: record.localId, request: record.request });
    expect(rebuilt.template).toEqual(record.template);
    const again = runAgain(rebuilt.template!);
    expect(again.prompts[0]).toBe(rebuilt.request.prompt);
    expect(again.record).toEqual(record.template);
  });

  it('gets it back from a JPEG’s XMP', async () => {
    const record = await downloadTask([['a.jpg', await makeEncoded(ENCODINGS[1]!, 64, 48)]]);
    expect((await rebuiltOnly()).template).toEqual(record.template);
  });

  it('gets it back from the XMP sidecar of an image with Content Credentials', async () => {
    const record = await downloadTask([
      ['signed.png', c2paFixture('signed.png')],
      ['b.webp', await makeEncoded(ENCODINGS[3]!, 32, 24)],
    ]);
    // Only the signed image is left: its sidecar alone tells the task.
    await rm(join(fixture.root, fixture.gallery.folderFor(record), 'image-2.webp'));
    const rebuilt = await rebuiltOnly();
    expect(rebuilt.images[0]!.xmpFile).toBe(`${fixture.gallery.folderFor(record)}/image-1.xmp`);
    expect(rebuilt.template).toEqual(record.template);
    expect(runAgain(rebuilt.template!).prompts[0]).toBe(record.request.prompt);
  });
});

describe('a crafted image whose template is damaged', () => {
  const good = run({ place: 'a garden' }, 'at dawn', 7).record;
  const damaged = { ...good, values: { place: 'x'.repeat(2_001) } };

  /** `images` (provenance overrides, one per image) written as PNGs into folder `task`. */
  async function craftedTask(images: Array<Parameters<typeof sampleProvenance>[0]>) {
    const png = await makeEncoded(ENCODINGS[0]!, 8, 8);
    await mkdir(join(fixture.root, 'task-secret-prompt'), { recursive: true });
    for (const [index, overrides] of images.entries()) {
      const bytes = await embedProvenanceInBuffer(
        png,
        'png',
        sampleProvenance({ ...overrides, imageIndex: index }),
      );
      await writeFile(join(fixture.root, 'task-secret-prompt', `image-${index + 1}.png`), bytes);
    }
  }

  it('gives the task back without it, said in a note naming the local id alone', async () => {
    await craftedTask([{ template: damaged }]);
    const { records, skipped, notes } = await rebuildLibrary(fixture.intake);
    expect(skipped).toEqual([]);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ localId: sampleProvenance().localId, imported: true });
    expect(records[0]).not.toHaveProperty('template');
    expect(notes).toEqual([
      {
        path: '.',
        reason: `Task ${sampleProvenance().localId}: the template its images name is not valid; the task comes back without it.`,
      },
    ]);
    expect(JSON.stringify(notes)).not.toMatch(/secret|xxxx|lighthouse/i);
  });

  it('takes the template from another image of the task that carries it whole', async () => {
    await craftedTask([{ template: damaged }, { template: good }]);
    const { records, notes } = await rebuildLibrary(fixture.intake);
    expect(records[0]!.template).toEqual(good);
    expect(notes).toEqual([]);
  });
});
