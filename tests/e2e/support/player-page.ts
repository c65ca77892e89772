/**
 * Page model of the player (src/player) for e2e specs and the player bench. Playback starts from
 * /explore's track list ('Play {title}' per row). Audio is read from the player's Howls, through
 * the engine's debug hook `window.__soundloftPlayer` (src/player/engine/howler-backend.ts) and
 * Howler's public API (`howl.playing()`, `howl.seek()`, `howl.state()`, `Howler.volume()`).
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { signInAsNewUser, type TestUser } from './session';

export const PLAYER_STORAGE_KEY = 'music-player-storage';

export interface AudioNode {
  /** Which sound (stable per sound: a track's Howl keeps its key from its press to its unload). */
  key: number;
  src: string;
  /** The Howl's state: 'loaded' once its element can play through, else 'loading'. */
  state: string;
  currentTime: number;
  paused: boolean;
  /** The element's volume: the Howl's times Howler's master volume (0 when the player is muted). */
  volume: number;
}

export interface PersistedPlayer {
  currentTrack: { id: string; title: string } | null;
  queue: { id: string; title: string }[];
  volume: number;
  currentTime: number;
  repeat: 'off' | 'all' | 'one';
  shuffle: boolean;
}

/** A fresh user signed in through the login form (session.ts). */
export function signInFresh(page: Page, name = 'Player Tester'): Promise<TestUser> {
  return signInAsNewUser(page, name);
}

export class PlayerPage {
  readonly page: Page;
  readonly bar: Locator;
  readonly nowPlaying: Locator;
  readonly queuePanel: Locator;

  constructor(page: Page) {
    this.page = page;
    this.bar = page.getByRole('region', { name: 'Player' });
    this.nowPlaying = page.getByRole('dialog', { name: 'Now playing' });
    this.queuePanel = page.getByRole('dialog', { name: 'Queue' });
  }

  /** /explore (optionally searched) with its rows on screen. */
  async openExplore(q?: string): Promise<void> {
    await this.page.goto(q ? `/explore?q=${encodeURIComponent(q)}` : '/explore');
    await expect(this.page.getByRole('button', { name: /^Play / }).first()).toBeVisible({
      timeout: 30_000,
    });
  }

  rowPlayButton(title: string): Locator {
    return this.page.getByRole('button', { name: `Play ${title}`, exact: true });
  }

  rowPauseButton(title: string): Locator {
    return this.page.getByRole('button', { name: `Pause ${title}`, exact: true });
  }

  /** Titles of the rows on screen, in order. */
  /** The rows' titles, once there are rows (a search's list can be empty for a moment). */
  async rowTitles(): Promise<string[]> {
    let labels: string[] = [];
    await expect
      .poll(
        async () =>
          (labels = await this.page
            .getByRole('button', { name: /^(Play|Pause) / })
            .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''))).length,
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    return labels.map((l) => l.replace(/^(Play|Pause) /, ''));
  }

  button(name: string | RegExp, scope: Locator = this.bar): Locator {
    return scope.getByRole('button', { name, exact: typeof name === 'string' });
  }

  seekSlider(scope: Locator = this.bar): Locator {
    return scope.getByRole('slider', { name: 'Seek' });
  }

  volumeSlider(scope: Locator = this.bar): Locator {
    return scope.getByRole('slider', { name: 'Volume' });
  }

  /** The title the bar shows (its 'Open now playing: {title} by {artist}' button). */
  async barTitle(): Promise<string> {
    const label = await this.bar
      .getByRole('button', { name: /^Open now playing: / })
      .getAttribute('aria-label');
    return (label ?? '').replace(/^Open now playing: /, '').replace(/ by [^]*$/, '');
  }

  async expectBarTitle(title: string): Promise<void> {
    await expect(
      this.bar.getByRole('button', { name: new RegExp(`^Open now playing: ${escape(title)} by `) }),
    ).toBeVisible();
  }

  /** Every sound the player holds (the current track, the preloaded next one, a pressed one). */
  async audioNodes(): Promise<AudioNode[]> {
    return this.page.evaluate(readPlayerSounds);
  }

  /** Which engine plays ('howler'), and whether Howler's global is the one the page runs. */
  async engine(): Promise<{ engine: string | null; howlerGlobal: boolean }> {
    return this.page.evaluate(() => {
      const w = window as unknown as PlayerWindow;
      return {
        engine: w.__soundloftPlayer?.engine ?? null,
        howlerGlobal: typeof w.Howler?.volume === 'function',
      };
    });
  }

  /** The audio element that is playing (not paused), or null. */
  async playingAudio(): Promise<AudioNode | null> {
    return (await this.audioNodes()).find((n) => !n.paused) ?? null;
  }

  /** Waits until some audio element is playing and its clock has moved past `beyond` seconds. */
  async expectAudioAdvancing(beyond = 0.3, timeout = 15_000): Promise<AudioNode> {
    let found: AudioNode | null = null;
    await expect
      .poll(
        async () => {
          found = await this.playingAudio();
          return found ? found.currentTime : -1;
        },
        { timeout },
      )
      .toBeGreaterThan(beyond);
    return found as unknown as AudioNode;
  }

  async expectNothingPlaying(): Promise<void> {
    await expect.poll(async () => (await this.playingAudio()) === null).toBe(true);
  }

  /** The position the seek slider reports (aria-valuenow, seconds). */
  async sliderSeconds(): Promise<number> {
    return Number(await this.seekSlider().getAttribute('aria-valuenow'));
  }

  async persisted(): Promise<PersistedPlayer | null> {
    return this.page.evaluate((key) => {
      const raw = localStorage.getItem(key);
      return raw ? (JSON.parse(raw) as { state: PersistedPlayer }).state : null;
    }, PLAYER_STORAGE_KEY);
  }

  /** Moves focus off any control, so global shortcuts (Space, arrows) reach the player. */
  async blur(): Promise<void> {
    await this.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  }

  /** Drags the pointer straight down by `dy` px over `target`'s centre, in small steps. */
  async dragDown(target: Locator, dy: number): Promise<void> {
    const box = await target.boundingBox();
    if (!box) throw new Error('Nothing to drag');
    const x = box.x + box.width / 2;
    const y = box.y + Math.min(box.height / 2, 120);
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    await this.page.mouse.move(x, y + dy, { steps: 8 });
    await this.page.mouse.up();
  }
}

/** What the engine's debug hook gives (src/player/engine/howler-backend.ts), typed here. */
interface HookHowl {
  playing(): boolean;
  seek(seconds?: number): number | object;
  state(): string;
  volume(): number | object;
  duration(): number;
}
export interface PlayerWindow {
  __soundloftPlayer?: {
    engine: string;
    sounds(): { key: number; src: string; howl: HookHowl }[];
  };
  Howler?: { volume(): number };
}

/**
 * The player's sounds read in the page through Howler's public API. It runs in the page (as
 * `page.evaluate`'s function, serialised): it uses nothing from this module. Only getters that
 * never wait are read: `howl.mute()` with no argument, on a Howl still loading, queues itself in
 * the Howl's load queue and never leaves it, and every play after it waits there for good.
 */
export function readPlayerSounds(): AudioNode[] {
  const w = window as unknown as PlayerWindow;
  const master = w.Howler?.volume() ?? 1;
  return (w.__soundloftPlayer?.sounds() ?? []).map(({ key, src, howl }) => {
    const time = howl.seek();
    const volume = howl.volume();
    return {
      key,
      src,
      state: howl.state(),
      currentTime: typeof time === 'number' ? time : 0,
      paused: !howl.playing(),
      volume: (typeof volume === 'number' ? volume : 1) * master,
    };
  });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
