/** fal.ai's profile end to end against the demo's fal dialect (see provider-scenarios.ts). */
import { describeCancel, describeProvider } from './provider-scenarios';

describeProvider({ provider: 'fal', handles: ['poll', 'result', 'cancel'] });
describeCancel('fal');
