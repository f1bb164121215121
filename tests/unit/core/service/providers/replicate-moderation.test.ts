/**
 * Replicate fails a prediction its safety check flagged with error code E005 ("The input or
 * output was flagged as sensitive. Please try again with different inputs. (E005)"), the answer
 * the demo service's replicate dialect gives. The profile's moderation pattern (NSFW, safety
 * checker/filter, content policy/moderation) does not match those words, so such a task is read
 * as an ordinary failure: the CLI and the app say "failed" where Replicate said "flagged".
 *
 * The profile is not this branch's to change: the test is marked `fails` so the suite stays
 * green and says what is wrong; once the profile reads E005 as moderated, vitest reports it and
 * the mark goes.
 */
import { describe, expect, it } from 'vitest';
import { replicateProfile } from '../../../../../electron/core/service/providers/replicate';

const FLAGGED =
  'The input or output was flagged as sensitive. Please try again with different inputs. (E005)';

describe('replicate profile', () => {
  it('reads a prediction failed for its safety check as failed today', () => {
    const read = replicateProfile.readPoll({ id: 'p', status: 'failed', error: FLAGGED });
    expect(read.status).toBe('failed');
  });

  it.fails('reads a prediction failed with E005 (flagged as sensitive) as moderated', () => {
    const read = replicateProfile.readPoll({ id: 'p', status: 'failed', error: FLAGGED });
    expect(read.status).toBe('moderated');
  });
});
