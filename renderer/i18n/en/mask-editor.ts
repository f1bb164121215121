/** English strings of the mask editor: its tools, keys, and why a mask file was refused. */
export const maskEditor = {
  'maskEditor.label': 'Mask',
  'maskEditor.canvas': 'Mask over the image: paint where the image is to be changed',
  'maskEditor.tools': 'Mask tools',
  'maskEditor.brush': 'Brush',
  'maskEditor.eraser': 'Eraser',
  'maskEditor.size': 'Brush size: {size} px',
  'maskEditor.smaller': 'Smaller brush ([)',
  'maskEditor.larger': 'Larger brush (])',
  'maskEditor.invert': 'Invert',
  'maskEditor.clear': 'Clear',
  'maskEditor.undo': 'Undo (Ctrl/Cmd+Z)',
  'maskEditor.redo': 'Redo (Ctrl/Cmd+Shift+Z)',
  'maskEditor.import': 'Import a mask…',
  'maskEditor.keys':
    'Drag over the image to paint · [ and ]: brush size · Ctrl/Cmd+Z: undo · Ctrl/Cmd+Shift+Z or Ctrl+Y: redo',
  'maskEditor.empty': 'Nothing is painted yet: paint over the part of the image to change.',
  'maskEditor.painted': 'The painted part of the image will be changed.',
  'maskEditor.refused.size':
    'This mask is {maskSize} pixels but the image is {size}. Choose a mask of exactly the image’s size.',
  'maskEditor.refused.unreadable':
    'This file could not be read as an image. Choose a PNG, JPEG or WebP mask.',
  'maskEditor.refused.tooLarge': 'This file is too large to be a mask. Choose a file under 64 MB.',
} as const;
