import { describe, expect, it } from 'vitest';
import {
  buildRequest,
  checkCount,
  checkModel,
  checkPrompt,
  checkQuality,
  checkSize,
  checkWatchMinutes,
} from '../../../../renderer/lib/request-validation';

describe('checkSize (custom size as typed)', () => {
  it.each([
    ['1536x1024', '1536x1024'],
    [' 1536 x 1024 ', '1536x1024'],
    ['1536X1024', '1536x1024'],
    ['1536×1024', '1536x1024'],
    ['0640x0480', '640x480'],
    ['1x1', '1x1'],
    ['999999x999999', '999999x999999'],
  ])('accepts %j as %s', (typed, canonical) => {
    expect(checkSize(typed)).toEqual({ ok: true, value: canonical });
  });

  it.each([
    ['', 'compose.size.error.empty'],
    ['   ', 'compose.size.error.empty'],
    ['1536', 'compose.size.error.format'],
    ['1536x', 'compose.size.error.format'],
    ['x1024', 'compose.size.error.format'],
    ['15.5x1024', 'compose.size.error.format'],
    ['-1x1024', 'compose.size.error.format'],
    ['1024x1024x2', 'compose.size.error.format'],
    ['big', 'compose.size.error.format'],
    ['0x1024', 'compose.size.error.zero'],
    ['1024x000', 'compose.size.error.zero'],
    ['1000000x1024', 'compose.size.error.tooLarge'],
  ])('refuses %j with the reason %s', (typed, reason) => {
    expect(checkSize(typed)).toEqual({ ok: false, reason });
  });
});

describe('the other checks', () => {
  it('quality: any non-empty value up to 100 characters', () => {
    expect(checkQuality(' hd ')).toEqual({ ok: true, value: 'hd' });
    expect(checkQuality('')).toEqual({ ok: false, reason: 'compose.quality.error.empty' });
    expect(checkQuality('q'.repeat(101))).toEqual({
      ok: false,
      reason: 'compose.quality.error.tooLong',
    });
  });

  it('count: a whole number from 1 to 10', () => {
    expect(checkCount('1')).toEqual({ ok: true, value: 1 });
    expect(checkCount(' 10 ')).toEqual({ ok: true, value: 10 });
    for (const bad of ['0', '11', '2.5', '', '-1', 'two']) {
      expect(checkCount(bad)).toEqual({ ok: false, reason: 'compose.count.error' });
    }
  });

  it('model: empty is the service default; at most 200 characters', () => {
    expect(checkModel('  ')).toEqual({ ok: true, value: '' });
    expect(checkModel('m'.repeat(201)).ok).toBe(false);
  });

  it('prompt: required, trimmed', () => {
    expect(checkPrompt('  a cat ')).toEqual({ ok: true, value: 'a cat' });
    expect(checkPrompt(' \n ')).toEqual({ ok: false, reason: 'compose.prompt.error.empty' });
  });

  it('watch timeout: whole minutes from 0 (never) to one week', () => {
    expect(checkWatchMinutes('0')).toEqual({ ok: true, value: 0 });
    expect(checkWatchMinutes('10080')).toEqual({ ok: true, value: 10080 });
    for (const bad of ['10081', '-5', '1.5', '', 'soon']) {
      expect(checkWatchMinutes(bad)).toEqual({ ok: false, reason: 'settings.watch.error' });
    }
  });

  it('buildRequest leaves empty optional fields out', () => {
    expect(buildRequest({ prompt: 'p', model: '', size: '', quality: '' })).toEqual({
      prompt: 'p',
    });
    expect(buildRequest({ prompt: 'p', model: 'm', size: '1x1', quality: 'low' })).toEqual({
      prompt: 'p',
      model: 'm',
      size: '1x1',
      quality: 'low',
    });
  });
});
