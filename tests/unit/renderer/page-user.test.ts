/**
 * What lets the wired tests' user (page-user.ts) leave out userEvent's pointer-events check: in
 * jsdom every element of the app computes `pointer-events: auto`, so the check could never refuse
 * a click. If one of these fails, the check finds something again: take `pageUser` out.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import '../../../renderer/features/edit/mask-editor/mask-editor.css';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

describe('pointer-events in the renderer tests’ jsdom', () => {
  it('is never set inline by the renderer', () => {
    const setting = repositoryFiles(['renderer'], /\.tsx?$/).filter((file) =>
      /pointerEvents|pointer-events/.test(readFileSync(join(REPO_ROOT, file), 'utf8')),
    );
    expect(setting).toEqual([]);
  });

  it('does not come from the app’s style sheets, which never reach jsdom', () => {
    // mask-editor.css (imported above) gives `.mask-canvas__cursor` pointer-events: none.
    const cursor = document.createElement('div');
    cursor.className = 'mask-canvas__cursor';
    document.body.append(cursor);
    expect(document.styleSheets).toHaveLength(0);
    expect(getComputedStyle(cursor).pointerEvents).toBe('auto');
  });
});
