/** The set-up shared by the answer-parsing tests: a client over a fake fetch, and error catchers. */
import { expect } from 'vitest';
import { ServiceClient } from '../../../../electron/core/service/service-client';
import { ServiceError } from '../../../../electron/core/service/service-error';
import type { Responder } from './fake-fetch';
import { caught, fakeFetch } from './fake-fetch';

export const credentials = {
  baseUrl: 'https://api.example.com/',
  key: 'sk-test-0123456789',
  keyFingerprint: 'acct',
};
export const NOW = Date.parse('2025-03-01T12:00:00Z');

export function client(responder: Responder, maxResponseBytes?: number) {
  const fake = fakeFetch(responder);
  const options = {
    fetch: fake.fetch,
    now: () => NOW,
    ...(maxResponseBytes ? { maxResponseBytes } : {}),
  };
  return { client: new ServiceClient(options), calls: fake.calls };
}

export async function serviceError(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await caught(promise);
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

export const submitFails = (responder: Responder, maxBytes?: number) =>
  serviceError(client(responder, maxBytes).client.submit(credentials, { prompt: 'a cat' }));
export const queryFails = (responder: Responder, maxBytes?: number) =>
  serviceError(client(responder, maxBytes).client.getTask(credentials, 'task_1'));
