/** The endpoints of tasks sent to the built-in demo service (its port changes every launch). */
export {
  DEMO_ENDPOINT,
  demoEndpointOf,
  demoProviderOf,
  isDemoEndpoint,
  isUnknownDemoEndpoint,
} from '../../../shared/domain/submit-target';
/** The key the demo service accepts. */
export const DEMO_KEY = 'demo';
