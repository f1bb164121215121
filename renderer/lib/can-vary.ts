/**
 * Whether a task, or an image of it, can be varied: "Vary" sends the task's request again with a
 * new seed, which changes something only where its model takes a seed on its service. The one
 * rule every place offering "Vary" asks (Task details, the image viewers' actions), by the task's
 * record or by the gallery's item made from it (the same service and model), never by whether
 * the service reported the seed it used: that only decides "Use this seed" (task-seed.tsx).
 */
import type { GalleryItem } from '../../shared/domain/gallery-item';
import { shippedParamSchema } from '../../shared/domain/model-param-schemas';
import { commonParam } from '../../shared/domain/model-params';
import { providerOf } from '../../shared/domain/providers';
import type { TaskRecord } from '../../shared/domain/task-record';

export function canVary(task: TaskRecord | GalleryItem): boolean {
  const model = 'request' in task ? task.request.model : task.model;
  const schema = shippedParamSchema(providerOf(task), model?.trim());
  return commonParam(schema, 'seed') !== undefined;
}
