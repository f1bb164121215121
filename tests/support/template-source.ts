/**
 * An in-memory TemplateSource (electron/core/templates/template-source.ts): templates checked
 * with the record's own schema, as the library's store would hand them over.
 */
import { promptTemplateSchema, type PromptTemplate } from '../../shared/domain/prompt-template';
import type { TemplateSource } from '../../electron/core/templates/template-source';

export function memoryTemplates(
  templates: readonly Omit<PromptTemplate, 'createdAt' | 'updatedAt' | 'version'>[],
  lists: Record<string, string[]> = {},
): TemplateSource & { put(template: PromptTemplate): void } {
  const byId = new Map<string, PromptTemplate>();
  const put = (template: PromptTemplate) => byId.set(template.id, template);
  for (const one of templates) {
    put(promptTemplateSchema().parse({ version: 1, createdAt: 1, updatedAt: 1, ...one }));
  }
  return {
    byId: (id) => byId.get(id) ?? null,
    wordLists: () => new Map(Object.entries(lists)),
    put,
  };
}
