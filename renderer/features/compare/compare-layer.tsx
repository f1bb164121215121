/** What the window shows of compare (app.tsx): the plan dialog and the compare view. */
import { CompareDialog } from './compare-dialog';
import { CompareView } from './compare-view';

export function CompareLayer() {
  return (
    <>
      <CompareDialog />
      <CompareView />
    </>
  );
}
