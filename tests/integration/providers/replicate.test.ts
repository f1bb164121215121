/** Replicate's profile end to end against the demo's replicate dialect (see provider-scenarios.ts). */
import { describeCancel, describeProvider } from './provider-scenarios';

describeProvider({ provider: 'replicate', handles: ['poll', 'cancel'] });
describeCancel('replicate');
