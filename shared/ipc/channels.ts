/**
 * The contract's channel names without its schemas, for the preload: it needs only the names,
 * and importing the schemas would put zod (hundreds of KB) into every page load. contract.ts
 * checks at compile time that these lists are exactly its keys.
 */
export const REQUEST_CHANNEL_NAMES = [
  'app:getInfo',
  'app:openExternal',
  'app:openLogs',
  'app:copyText',
  'tasks:submit',
  'tasks:list',
  'tasks:count',
  'tasks:get',
  'tasks:track',
  'tasks:resume',
  'tasks:retryImages',
  'tasks:remove',
  'tasks:setFavourite',
  'gallery:list',
  'gallery:models',
  'gallery:setFavourite',
  'gallery:deleteImage',
  'gallery:reveal',
  'gallery:copyImage',
  'gallery:saveAs',
  'gallery:startDrag',
  'gallery:openFolder',
  'gallery:chooseFolder',
  'settings:get',
  'settings:update',
  'key:getStatus',
  'key:set',
  'key:clear',
  'service:testConnection',
] as const;

export const EVENT_CHANNEL_NAMES = [
  'task:updated',
  'task:removed',
  'gallery:changed',
  'settings:changed',
  'key:changed',
  'network:changed',
  'app:demoChanged',
  'menu:command',
  'app:notice',
] as const;
