/**
 * The demo service: the local implementation of the image task service's HTTP interface
 * (docs/SERVICE.md). The app's built-in default service, the development
 * server (see cli.ts) and the tests' counterpart. Plain Node and sharp only.
 */
export { startDemoService } from './server';
export { DemoOptionsError } from './options';
export type {
  DemoAccount,
  DemoDuration,
  DemoRequestLog,
  DemoRoute,
  DemoService,
  DemoServiceOptions,
  DemoTaskRequest,
  DemoTaskSnapshot,
  FaultEffect,
  FaultRule,
  RequestLogEntry,
} from './types';
