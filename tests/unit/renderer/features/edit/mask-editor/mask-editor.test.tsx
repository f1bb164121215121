/**
 * The mask editor in the page: `[` and `]` change the brush size it shows; its undo and redo keys
 * are handled and stopped inside it (the document, where the app's own undo listens, never sees
 * them) while other keys pass; a pointer stroke, mapped from the shown canvas to source pixels,
 * hands on both PNGs once per stroke; undo, redo, invert and the eraser change what is handed on;
 * a mask file of another size is refused with a sentence and changes nothing.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DecodedMask } from '../../../../../../renderer/features/edit/mask-editor/mask-import';
import { MaskEditor } from '../../../../../../renderer/features/edit/mask-editor/mask-editor';
import { readPng } from './png-reader';

type Masks = { white: Uint8Array; alpha: Uint8Array } | null;

const source = { url: 'pictor-gallery://source.png', width: 37, height: 23 };

beforeEach(() => {
  // jsdom draws nothing (no 2D context); the editor then skips its overlay.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Renders the editor with the canvas shown at ten times the source's size. */
function renderEditor(props: Partial<Parameters<typeof MaskEditor>[0]> = {}) {
  const changes: Masks[] = [];
  const onChange = vi.fn((masks: Masks) => void changes.push(masks));
  render(<MaskEditor source={source} onChange={onChange} {...props} />);
  const canvas = screen.getByRole('img', { name: /Mask over the image/ });
  vi.spyOn(canvas, 'getBoundingClientRect').mockReturnValue(
    DOMRect.fromRect({ x: 0, y: 0, width: 370, height: 230 }),
  );
  return { canvas, onChange, changes };
}

/** A stroke through shown points (client pixels, ten per source pixel). */
function drag(canvas: HTMLElement, points: readonly [number, number][]) {
  const [first, ...rest] = points;
  fireEvent.pointerDown(canvas, {
    pointerId: 1,
    button: 0,
    clientX: first![0],
    clientY: first![1],
  });
  for (const [clientX, clientY] of rest)
    fireEvent.pointerMove(canvas, { pointerId: 1, clientX, clientY });
  fireEvent.pointerUp(canvas, { pointerId: 1 });
}

/** The edited pixels of a white mask, as `x,y`, checking its format and size on the way. */
function editedOf(masks: Masks): string[] {
  if (!masks) throw new Error('no masks');
  const white = readPng(masks.white);
  const alpha = readPng(masks.alpha);
  expect([white.width, white.height, white.colourType]).toEqual([37, 23, 0]);
  expect([alpha.width, alpha.height, alpha.colourType]).toEqual([37, 23, 6]);
  const edited: string[] = [];
  for (let pixel = 0; pixel < 37 * 23; pixel += 1) {
    const isWhite = white.samples[pixel] === 255;
    expect(alpha.samples[pixel * 4 + 3]).toBe(isWhite ? 0 : 255);
    if (isWhite) edited.push(`${pixel % 37},${Math.floor(pixel / 37)}`);
    else expect(white.samples[pixel]).toBe(0);
  }
  return edited.sort();
}

function rows(spans: readonly [number, number, number][]): string[] {
  return spans
    .flatMap(([y, from, to]) => Array.from({ length: to - from + 1 }, (_, i) => `${from + i},${y}`))
    .sort();
}

/** A brush of size 4 from source (10.5, 10.5) to (30.5, 10.5). */
const STROKE = rows([
  [8, 10, 30],
  [9, 9, 31],
  [10, 8, 32],
  [11, 9, 31],
  [12, 10, 30],
]);

describe('the mask editor', () => {
  it('changes the brush size it shows with [ and ] and with its buttons', async () => {
    const { canvas } = renderEditor();
    const size = () => screen.getByText(/^Brush size:/).textContent;
    expect(size()).toBe('Brush size: 4 px');
    fireEvent.keyDown(canvas, { key: ']' });
    expect(size()).toBe('Brush size: 5 px');
    fireEvent.keyDown(canvas, { key: '[' });
    fireEvent.keyDown(canvas, { key: '[' });
    expect(size()).toBe('Brush size: 3 px');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Larger brush (])' }));
    expect(size()).toBe('Brush size: 4 px');
    for (let i = 0; i < 10; i += 1) fireEvent.keyDown(canvas, { key: '[' });
    expect(size()).toBe('Brush size: 1 px');
  });

  it('keeps its undo and redo keys from the document, and lets other keys through', () => {
    const { canvas } = renderEditor();
    const reached: string[] = [];
    const listen = (event: KeyboardEvent) => void reached.push(event.key);
    document.addEventListener('keydown', listen);
    try {
      const stopped = [
        { key: 'z', ctrlKey: true },
        { key: 'z', metaKey: true },
        { key: 'Z', ctrlKey: true, shiftKey: true },
        { key: 'z', metaKey: true, shiftKey: true },
        { key: 'y', ctrlKey: true },
        { key: '[' },
        { key: ']' },
      ];
      for (const key of stopped) expect(fireEvent.keyDown(canvas, key), key.key).toBe(false);
      expect(reached).toEqual([]);
      fireEvent.keyDown(canvas, { key: 'Escape' });
      fireEvent.keyDown(canvas, { key: 'a', ctrlKey: true });
      expect(reached).toEqual(['Escape', 'a']);
    } finally {
      document.removeEventListener('keydown', listen);
    }
  });

  it('hands on both masks once per stroke, at the pixels under the pointer', async () => {
    const { canvas, onChange, changes } = renderEditor();
    expect(screen.getByText(/Nothing is painted yet/).getAttribute('role')).toBe('status');
    drag(canvas, [
      [105, 105],
      [155, 105],
      [205, 105],
      [305, 105],
    ]);
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    expect(editedOf(changes[0]!)).toEqual(STROKE);
    expect(screen.getByText(/will be changed/).getAttribute('role')).toBe('status');
    // Moving without a press paints nothing and hands nothing on.
    fireEvent.pointerMove(canvas, { pointerId: 1, clientX: 50, clientY: 200 });
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('undoes and redoes from its keys and buttons, and hands on null when nothing is left', async () => {
    const { canvas, onChange, changes } = renderEditor();
    drag(canvas, [
      [105, 105],
      [305, 105],
    ]);
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    fireEvent.keyDown(canvas, { key: 'z', ctrlKey: true });
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(2));
    expect(changes[1]).toBeNull();
    expect(screen.getByRole('button', { name: /^Undo/ })).toHaveProperty('disabled', true);
    fireEvent.keyDown(canvas, { key: 'Z', ctrlKey: true, shiftKey: true });
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(3));
    expect(editedOf(changes[2]!)).toEqual(STROKE);
    // Nothing left to redo: the key changes nothing and hands nothing on.
    fireEvent.keyDown(canvas, { key: 'y', ctrlKey: true });
    await userEvent.setup().click(screen.getByRole('button', { name: /^Undo/ }));
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(4));
    expect(changes[3]).toBeNull();
  });

  it('erases with the eraser and inverts with its button', async () => {
    const user = userEvent.setup();
    const { canvas, onChange, changes } = renderEditor();
    drag(canvas, [
      [105, 105],
      [305, 105],
    ]);
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    const eraser = screen.getByRole('button', { name: 'Eraser' });
    await user.click(eraser);
    expect(eraser.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Brush' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
    fireEvent.keyDown(canvas, { key: '[' });
    fireEvent.keyDown(canvas, { key: '[' });
    fireEvent.keyDown(canvas, { key: '[' });
    drag(canvas, [[205, 105]]);
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(2));
    expect(editedOf(changes[1]!)).toEqual(STROKE.filter((pixel) => pixel !== '20,10'));
    await user.click(screen.getByRole('button', { name: 'Invert' }));
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(3));
    const inverted = editedOf(changes[2]!);
    expect(inverted).toHaveLength(37 * 23 - STROKE.length + 1);
    expect(inverted).toContain('20,10');
    expect(inverted).not.toContain('8,10');
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(4));
    expect(changes[3]).toBeNull();
  });

  it('refuses a mask file of another size with a sentence, and keeps the mask', async () => {
    const decoded: DecodedMask = {
      width: 40,
      height: 30,
      rgba: () => {
        throw new Error('pixels read before the size was checked');
      },
      close: () => {},
    };
    const onRefuse = vi.fn();
    const { onChange } = renderEditor({ onRefuse, decode: () => Promise.resolve(decoded) });
    const input = screen.getByLabelText('Import a mask…', { selector: 'input' });
    const file = new File([new Uint8Array([1])], 'mask.png', { type: 'image/png' });
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    fireEvent.change(input);
    await waitFor(() => expect(onRefuse).toHaveBeenCalledTimes(1));
    expect(onRefuse).toHaveBeenCalledWith(
      'This mask is 40×30 pixels but the image is 37×23. Choose a mask of exactly the image’s size.',
    );
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the refusal itself when no one takes it, and imports a mask of the right size', async () => {
    const pixels = new Uint8ClampedArray(37 * 23 * 4).fill(255);
    pixels.set([0, 0, 0, 0], (2 * 37 + 3) * 4);
    let width = 36;
    const decode = () =>
      Promise.resolve({ width, height: 23, rgba: () => pixels, close: () => {} });
    const { onChange, changes } = renderEditor({ decode });
    const input = screen.getByLabelText('Import a mask…', { selector: 'input' });
    const choose = () => {
      const file = new File([new Uint8Array([1])], 'mask.png', { type: 'image/png' });
      Object.defineProperty(input, 'files', { value: [file], configurable: true });
      fireEvent.change(input);
    };
    choose();
    expect((await screen.findByRole('alert')).textContent).toMatch(/is 36×23 pixels/);
    width = 37;
    choose();
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    expect(editedOf(changes[0]!)).toEqual(['3,2']);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('has every control labelled and in the tab order', async () => {
    const user = userEvent.setup();
    renderEditor();
    const names = [
      'Brush',
      'Eraser',
      'Smaller brush ([)',
      'Larger brush (])',
      'Invert',
      'Import a mask…',
    ];
    const reached: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      await user.tab();
      const label =
        document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent;
      if (label) reached.push(label);
    }
    for (const name of names) expect(reached).toContain(name);
    expect(reached.some((label) => label.startsWith('Mask over the image'))).toBe(true);
  });
});
