/** A valid export made by hand (sidecars, images, manifest), for tests to break one part of. */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TaskRecord } from '../../../../../shared/domain/task-record';
import { taskFolderName } from '../../../../../electron/core/gallery/gallery-layout';
import { sidecarText } from '../../../../../electron/core/gallery/sidecar';
import { makeImage } from '../../../../support/gallery-helpers';
import { makeTaskRecord } from '../../../../support/task-records';
import { craftZip, type CraftedEntry } from './crafted-zip';

export interface ExportFile {
  readonly path: string;
  readonly data: Buffer;
  readonly kind: 'sidecar' | 'image';
  readonly taskId: string;
}

let counter = 0;

/** What a crafted task's image file holds, and the size its sidecar says it has. */
export interface CraftedImage {
  readonly data: Buffer;
  readonly width: number;
  readonly height: number;
}

/** A task with one saved PNG (by default a real 8×8 one), as its two archive files. */
export async function taskFiles(
  image?: CraftedImage,
): Promise<{ record: TaskRecord; files: ExportFile[] }> {
  counter += 1;
  const localId = `crafted-${counter}`;
  const base = makeTaskRecord(
    { localId, request: { prompt: `Crafted ${counter}` } },
    Date.UTC(2025, 1, 1, 0, 0, counter),
  );
  const folder = taskFolderName(base);
  const png = image?.data ?? (await makeImage('png', 8, 8));
  const record: TaskRecord = {
    ...base,
    folder,
    images: [
      {
        index: 0,
        url: 'https://cdn.example.com/x.png',
        state: 'saved',
        file: `${folder}/image-1.png`,
        mime: 'image/png',
        width: image?.width ?? 8,
        height: image?.height ?? 8,
        bytes: png.length,
        attempts: 1,
        favourite: false,
      },
    ],
  };
  return {
    record,
    files: [
      { path: `${folder}/image-1.png`, data: png, kind: 'image', taskId: localId },
      {
        path: `${folder}/pictor.json`,
        data: Buffer.from(sidecarText(record)),
        kind: 'sidecar',
        taskId: localId,
      },
    ],
  };
}

export function manifestFor(files: readonly ExportFile[]): Buffer {
  return Buffer.from(
    JSON.stringify({
      format: 'pictor-library-export',
      version: 1,
      pictorVersion: 'test',
      createdAt: new Date(Date.UTC(2025, 0, 1)).toISOString(),
      entries: files.map((file) => ({
        taskId: file.taskId,
        path: file.path,
        kind: file.kind,
        size: file.data.length,
        sha256: createHash('sha256').update(file.data).digest('hex'),
      })),
    }),
  );
}

/** The files and their manifest as crafted entries; `extra` entries are added as they are. */
export function exportEntries(
  files: readonly ExportFile[],
  extra: readonly CraftedEntry[] = [],
): CraftedEntry[] {
  return [
    ...files.map((file) => ({ name: file.path, data: file.data })),
    ...extra,
    { name: 'pictor-export.json', data: manifestFor(files) },
  ];
}

export async function writeZip(
  dir: string,
  entries: readonly CraftedEntry[],
  name = 'crafted.zip',
): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, craftZip(entries));
  return path;
}
