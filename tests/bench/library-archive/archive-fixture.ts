/**
 * The archive bench's library: `tasks` finished tasks, one saved PNG each (a few distinct
 * photo-like noise images, so they do not compress), in a history and a gallery laid out as the
 * app writes them. Built fresh in a temporary folder.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { randomBytes } from 'node:crypto';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { imageNames } from '../../../electron/core/gallery/gallery-layout';
import { TEMP_DIR } from '../../../electron/core/fs/temp-names';
import { sidecarText } from '../../../electron/core/gallery/sidecar';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { benchRecord } from '../history-fixture';

const DISTINCT = 8;
const SIDE = 112;

export async function buildArchiveLibrary(
  dataDir: string,
  tasks: number,
): Promise<{ imageBytes: number }> {
  const root = join(dataDir, 'gallery');
  await mkdir(join(root, TEMP_DIR), { recursive: true });
  const pngs = await Promise.all(
    Array.from({ length: DISTINCT }, () =>
      sharp(randomBytes(SIDE * SIDE * 3), { raw: { width: SIDE, height: SIDE, channels: 3 } })
        .png()
        .toBuffer(),
    ),
  );
  const history = HistoryStore.open(join(dataDir, HISTORY_FILE));
  let imageBytes = 0;
  let batch: TaskRecord[] = [];
  for (let n = 0; n < tasks; n += 1) {
    const png = pngs[n % DISTINCT] as Buffer;
    const base = benchRecord(n);
    const folder = `${2020 + (n % 5)}/${String(1 + (n % 12)).padStart(2, '0')}/task-${n}`;
    const name = imageNames(0, 'png').image;
    const record: TaskRecord = {
      ...base,
      folder,
      images: [
        {
          index: 0,
          url: `https://cdn.example.test/${n}.png`,
          state: 'saved',
          file: `${folder}/${name}`,
          width: SIDE,
          height: SIDE,
          bytes: png.length,
          mime: 'image/png',
          attempts: 1,
          favourite: false,
        },
      ],
    };
    await mkdir(join(root, folder), { recursive: true });
    await writeFile(join(root, folder, name), png);
    await writeFile(join(root, folder, 'pictor.json'), sidecarText(record));
    imageBytes += png.length;
    batch.push(record);
    if (batch.length === 500) {
      history.putMany(batch);
      batch = [];
    }
  }
  if (batch.length > 0) history.putMany(batch);
  history.close();
  return { imageBytes };
}
