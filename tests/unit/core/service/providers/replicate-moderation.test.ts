/**
 * Replicate fails a prediction its safety check flagged with error code E005 ("The input or
 * output was flagged as sensitive. Please try again with different inputs. (E005)"), the answer
 * the demo service's replicate dialect gives: read as moderated, not as an ordinary failure; a
 * failure in other words stays a failure.
 */
import { describe, expect, it } from 'vitest';
import { replicateProfile } from '../../../../../electron/core/service/providers/replicate';

const FLAGGED =
  'The input or output was flagged as sensitive. Please try again with different inputs. (E005)';

describe('replicate profile', () => {
  it('reads a prediction failed for another reason as failed', () => {
    const read = replicateProfile.readPoll(
      { id: 'p', status: 'failed', error: 'CUDA out of memory' },
      'p',
    );
    expect(read.status).toBe('failed');
  });

  it('reads a prediction failed with E005 (flagged as sensitive) as moderated', () => {
    const read = replicateProfile.readPoll({ id: 'p', status: 'failed', error: FLAGGED }, 'p');
    expect(read.status).toBe('moderated');
  });
});
