/** User settings: what the renderer may read and change. Stored by the main process. */
import { z } from 'zod';
import { SIZE_PATTERN } from '../service/wire';
import { LANGUAGE_CHOICES } from './locales';
import { PROVIDER_IDS, perProvider, providerIdSchema } from './providers';
import { MAX_WATCH_MINUTES, REQUEST_LIMITS, TASKS_PER_SUBMIT } from './limits';
import { UPDATE_MODES } from './update-state';
import { SERVICE_NAME_MAX_CHARS } from './service-name';
import { lazySchema } from './lazy-schema';

/** The most loopback servers of other users the user may allow (settings' `allowedLocalServers`). */
const MAX_ALLOWED_LOCAL_SERVERS = 32;

export const THEMES = ['system', 'light', 'dark'] as const;

/**
 * Each service's address: the one the user gave it, else its provider's `defaultBaseUrl` (the
 * user's own service has none: absent or empty, it has no address and the built-in demo runs). A
 * field it does not name is dropped, as everywhere in settings (a `strict` object refused the
 * whole settings event the window is sent when one came along). Built on first use, as every
 * schema here (lazy-schema.ts): loading the module (main's IPC contract does, at its start) builds
 * none.
 */
export const serviceBaseUrlsSchema = lazySchema(() => {
  const addressOverride = z.string().max(2_000).optional();
  return z.object(perProvider(PROVIDER_IDS, () => addressOverride));
});
export type ServiceBaseUrls = z.infer<ReturnType<typeof serviceBaseUrlsSchema>>;

export const settingsSchema = lazySchema(() =>
  z.object({
    /**
     * What the user calls their own service (today's contract): shown wherever the window names it;
     * empty: its address's host, or the catalogue's name before an address is set.
     */
    serviceName: z.string().max(SERVICE_NAME_MAX_CHARS),
    /** The service new tasks go to (the compose form's choice, kept across restarts). */
    provider: providerIdSchema(),
    /**
     * Each service's address where the user gave one (the user's own service: its only one; until
     * then the demo service runs). Files of earlier versions kept the user's own in `baseUrl`:
     * core/settings/settings-migration.ts moves it here.
     */
    serviceBaseUrls: serviceBaseUrlsSchema(),
    defaultModel: z.string().max(REQUEST_LIMITS.model),
    defaultSize: z.string().regex(SIZE_PATTERN).or(z.literal('')),
    defaultQuality: z.string().max(REQUEST_LIMITS.quality),
    defaultCount: z.number().int().min(TASKS_PER_SUBMIT.min).max(TASKS_PER_SUBMIT.max),
    /** Absolute folder; empty means the OS Pictures folder + /Pictor. */
    galleryDir: z.string().max(4_000),
    notifications: z.boolean(),
    theme: z.enum(THEMES),
    /** The language shown: `system` follows the system's languages, or a locale tag. */
    language: z.enum(LANGUAGE_CHOICES),
    /** Stop watching a task after this many minutes (the id is kept); 0 watches forever. */
    watchTimeoutMinutes: z.number().int().min(0).max(MAX_WATCH_MINUTES),
    /** Download a found update in the background, or only say that there is one. */
    updateMode: z.enum(UPDATE_MODES),
    /** Input images only ever go inside the request: a model that takes them only by upload is refused. */
    neverUploadInputs: z.boolean(),
    /**
     * The services the user agreed may turn uploaded inputs into public links (fal's storage: anyone
     * with the link can fetch it), asked once per service; each named once.
     */
    publicUploadConsent: z
      .array(providerIdSchema())
      .max(PROVIDER_IDS.length)
      .refine((ids) => new Set(ids).size === ids.length, 'A service is named twice.'),
    /**
     * Loopback servers another user of this computer runs that Pictor may send to all the same
     * (a system-service ComfyUI under its own user), each `host:port`; every other such server is
     * refused before anything is sent (core/service/local-server-gate.ts, Linux only).
     */
    allowedLocalServers: z.array(z.string().max(300)).max(MAX_ALLOWED_LOCAL_SERVERS),
  }),
);
export type Settings = z.infer<ReturnType<typeof settingsSchema>>;

export const DEFAULT_SETTINGS: Settings = {
  serviceName: '',
  provider: 'pictor',
  serviceBaseUrls: {},
  defaultModel: '',
  defaultSize: '1024x1024',
  defaultQuality: 'auto',
  defaultCount: 1,
  galleryDir: '',
  notifications: true,
  theme: 'system',
  language: 'system',
  watchTimeoutMinutes: 30,
  updateMode: 'download',
  neverUploadInputs: false,
  publicUploadConsent: [],
  allowedLocalServers: [],
};

/**
 * What stands in for settings a file holds but this version cannot read: the file unreadable
 * (busy, no permission), damaged or not an object, or one value refused or a newer Pictor's. The
 * defaults, but where a default acts for the user without asking, its cautious side: a found
 * update is only announced and input images never uploaded, since the user may have chosen so
 * in the file that could not be read. No file at all (a first start) is read as the defaults.
 */
export const UNREAD_SETTINGS: Settings = {
  ...DEFAULT_SETTINGS,
  updateMode: 'notify',
  neverUploadInputs: true,
};

/**
 * A change from the renderer: any subset of the settings but the gallery folder. A path the
 * main process acts on comes from the main process itself (its folder dialog), never from the
 * page: see the `library:pick`, `library:move` and `library:open` requests.
 */
export const settingsPatchSchema = lazySchema(() =>
  settingsSchema()
    .omit({ galleryDir: true })
    // A change names only services Pictor knows; settings read back drop what they do not name.
    .extend({ serviceBaseUrls: serviceBaseUrlsSchema().strict() })
    .partial()
    .strict(),
);
export type SettingsPatch = z.infer<ReturnType<typeof settingsPatchSchema>>;
