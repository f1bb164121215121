import { describe, expect, it } from 'vitest';
import config from '../../../vitest.config';
import { RunOrder, spreadAmong } from '../../support/run-order';

const isPack = (name: string): boolean => name.startsWith('p');
const isHard = (name: string): boolean => name.startsWith('h');

describe('the order the run hands its files to the workers', () => {
  it('spreads the packaging files evenly through the hardening files, the first at the front', () => {
    const sorted = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'i1', 'i2', 'p1', 'p2', 'p3', 'r1'];
    expect(spreadAmong(sorted, isPack, isHard)).toEqual([
      'p1',
      'h1',
      'h2',
      'p2',
      'h3',
      'h4',
      'p3',
      'h5',
      'h6',
      'i1',
      'i2',
      'r1',
    ]);
  });

  it('keeps every file once, each project in its order, and the other projects together', () => {
    const sorted = ['h1', 'h2', 'i1', 'i2', 'i3', 'p1', 'p2', 'p3', 'p4', 'p5', 'r1', 'r2'];
    const order = spreadAmong(sorted, isPack, isHard);
    expect([...order].sort()).toEqual([...sorted].sort());
    for (const project of ['h', 'i', 'p', 'r'])
      expect(order.filter((name) => name.startsWith(project))).toEqual(
        sorted.filter((name) => name.startsWith(project)),
      );
    expect(order.join(' ')).toContain('i1 i2 i3 r1 r2');
    expect(order.slice(0, 7)).toEqual(['p1', 'p2', 'p3', 'h1', 'p4', 'p5', 'h2']);
  });

  it('leaves the order alone when either project has no file in the run', () => {
    expect(spreadAmong(['i1', 'p1', 'p2'], isPack, isHard)).toEqual(['i1', 'p1', 'p2']);
    expect(spreadAmong(['h1', 'h2', 'i1'], isPack, isHard)).toEqual(['h1', 'h2', 'i1']);
  });

  it('is the order vitest.config.ts gives the run', () => {
    expect(config.test?.sequence?.sequencer).toBe(RunOrder);
  });
});
