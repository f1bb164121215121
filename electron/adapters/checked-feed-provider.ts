/**
 * An electron-updater provider whose update information is Pictor's own reading of the feed
 * (app/updates/release-feed.ts): the channel file fetched with a size cap and a deadline, YAML
 * without anchors, aliases or tags, every field checked, no prerelease for a stable version.
 * electron-updater's own generic provider would read the file whole into a string and hand it to
 * js-yaml, so a hostile feed could exhaust memory or hang the main process before any check.
 */
import {
  Provider,
  type AppUpdater,
  type ResolvedUpdateFileInfo,
  type UpdateInfo,
} from 'electron-updater';
import type { ProviderRuntimeOptions } from 'electron-updater/out/providers/Provider';
import { channelFileName, fetchRelease, type FeedRelease } from '../app/updates/release-feed';
import type { Clock } from '../ports/clock';
import type { FetchLike } from '../ports/http';
import type { DeclaredSizes } from './bounded-download';

/** Where the feed is and how to reach it. */
export interface FeedAccess {
  /** The feed's folder (app-update.yml's `url`). */
  readonly url: string;
  /** `latest` unless app-update.yml names another channel. */
  readonly channel?: string;
  /** The app's network stack for the channel file (never the service's key or cookies). */
  readonly fetch: FetchLike;
  readonly clock: Clock;
}

type FeedOptions = Extract<Parameters<AppUpdater['setFeedURL']>[0], { provider: 'custom' }>;

/**
 * electron-updater's options that install the checked provider (`updater.setFeedURL`); the sizes
 * of the files it resolves go to `sizes`, which bound their downloads (bounded-download.ts).
 */
export function checkedFeedOptions(
  feed: FeedAccess,
  updater: AppUpdater,
  sizes: DeclaredSizes,
): FeedOptions {
  class CheckedFeedProvider extends Provider<UpdateInfo> {
    private readonly platform: NodeJS.Platform;
    private last: FeedRelease | null = null;

    constructor(_options: FeedOptions, _updater: unknown, runtime: ProviderRuntimeOptions) {
      super(runtime);
      this.platform = runtime.platform;
    }

    async getLatestVersion(): Promise<UpdateInfo> {
      this.last = await fetchRelease({
        feedUrl: feed.url,
        channelFile: channelFileName(this.platform, process.arch, feed.channel),
        currentVersion: updater.currentVersion.version,
        fetch: feed.fetch,
        clock: feed.clock,
      });
      return this.last.release;
    }

    resolveFiles(info: UpdateInfo): ResolvedUpdateFileInfo[] {
      // Only ever asked about the release this provider just returned.
      if (this.last?.release !== info) throw new Error('Unknown update information.');
      const files = this.last.files.map((file) => ({ url: file.url, info: file.info }));
      sizes.remember(files);
      return files;
    }
  }
  return { provider: 'custom', updateProvider: CheckedFeedProvider };
}
