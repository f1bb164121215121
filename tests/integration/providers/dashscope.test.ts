/**
 * DashScope's profile end to end against the demo's dashscope dialect (see
 * provider-scenarios.ts). DashScope hands out no task address: its tasks are found by id under
 * the base URL, so a foreign origin has nothing to point to.
 */
import { describeCancel, describeProvider } from './provider-scenarios';

describeProvider({ provider: 'dashscope', handles: [] });
describeCancel('dashscope');
