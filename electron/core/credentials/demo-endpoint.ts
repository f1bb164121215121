/** The endpoint of tasks sent to the built-in demo service (its port changes every launch). */
export const DEMO_ENDPOINT = 'demo:';
/** The key the demo service accepts. */
export const DEMO_KEY = 'demo';
