import { describe, expect, it } from 'vitest';
import { Emitter } from '../../../electron/ports/event';
import type { LogFields, Logger } from '../../../electron/ports/logger';

function recordingLogger() {
  const errors: { message: string; fields?: LogFields }[] = [];
  const ignore = () => undefined;
  const logger: Logger = {
    debug: ignore,
    info: ignore,
    warn: ignore,
    error: (message, fields) => void errors.push({ message, ...(fields ? { fields } : {}) }),
  };
  return { logger, errors };
}

describe('Emitter', () => {
  it('logs a throwing listener (any thrown value) and still calls the ones after it', () => {
    const { logger, errors } = recordingLogger();
    const emitter = new Emitter<number>({ name: 'count changed', logger });
    const heard: number[] = [];
    emitter.event(() => {
      throw new TypeError('broken');
    });
    emitter.event(() => {
      // Not an Error: a library may throw anything.
      throw 'a string';
    });
    emitter.event((value) => heard.push(value));
    expect(() => emitter.fire(1)).not.toThrow();
    emitter.fire(2);
    expect(heard).toEqual([1, 2]);
    expect(errors).toEqual([
      {
        message: 'an event listener failed',
        fields: { event: 'count changed', error: 'TypeError: broken' },
      },
      {
        message: 'an event listener failed',
        fields: { event: 'count changed', error: 'a string' },
      },
      {
        message: 'an event listener failed',
        fields: { event: 'count changed', error: 'TypeError: broken' },
      },
      {
        message: 'an event listener failed',
        fields: { event: 'count changed', error: 'a string' },
      },
    ]);
  });

  it('ends a subscription when its disposable is disposed, even during a fire under way', () => {
    const { logger } = recordingLogger();
    const emitter = new Emitter<string>({ name: 'test', logger });
    const heard: string[] = [];
    let endSecond = (): void => undefined;
    emitter.event((value) => {
      heard.push(`first ${value}`);
      endSecond();
    });
    const second = emitter.event((value) => heard.push(`second ${value}`));
    endSecond = () => second.dispose();
    emitter.fire('a');
    emitter.fire('b');
    expect(heard).toEqual(['first a', 'first b']);
  });

  it('counts one function subscribed twice as two subscriptions, each ended on its own', () => {
    const { logger } = recordingLogger();
    const emitter = new Emitter<string>({ name: 'test', logger });
    const heard: string[] = [];
    const listener = (value: string) => heard.push(value);
    const one = emitter.event(listener);
    emitter.event(listener);
    emitter.fire('x');
    one.dispose();
    one.dispose();
    emitter.fire('y');
    expect(heard).toEqual(['x', 'x', 'y']);
    expect(emitter.hasListeners()).toBe(true);
  });

  it('does not call a listener added during a fire until the next one', () => {
    const { logger } = recordingLogger();
    const emitter = new Emitter<number>({ name: 'test', logger });
    const heard: string[] = [];
    emitter.event((value) => {
      heard.push(`outer ${value}`);
      if (value === 1) emitter.event((inner) => heard.push(`inner ${inner}`));
    });
    emitter.fire(1);
    emitter.fire(2);
    expect(heard).toEqual(['outer 1', 'outer 2', 'inner 2']);
  });

  it('reaches no one once disposed, and ends later subscriptions at once', () => {
    const { logger } = recordingLogger();
    const emitter = new Emitter<number>({ name: 'test', logger });
    const heard: number[] = [];
    emitter.event((value) => heard.push(value));
    emitter.dispose();
    emitter.event((value) => heard.push(value * 10)).dispose();
    emitter.event((value) => heard.push(value * 100));
    emitter.fire(1);
    expect(heard).toEqual([]);
    expect(emitter.hasListeners()).toBe(false);
  });
});
