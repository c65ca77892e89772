/**
 * Plays that start without a gesture (docs/player.md, "Unlocked elements"), in a Chromium that
 * asks for a user gesture per media element (`--autoplay-policy=user-gesture-required`: an
 * element plays without a user activation only once `load()` or `play()` ran on it with one, the
 * rule iOS Safari has). The rest of the suite runs with `no-user-gesture-required`. This file
 * drives the full browser (CHROMIUM_PATH), not the suite's headless shell: the shell plays a
 * `new Audio()` from a timer under this policy (checked), the full browser refuses it.
 *
 * The lock screen is a second tab of the same origin: it sends the Media Session action over a
 * BroadcastChannel, and the player's tab runs the app's own handler. A message is no user
 * activation; each report says whether the player's tab had one (Playwright's clicks and
 * evaluations give one for 5 s), so the test waits for it to lapse first, and every play() is
 * logged with the activation it had and the browser's answer.
 */
import { expect, test, type Page } from './support/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium';
import { PlayerPage, signInFresh, type PlayerWindow } from './support/player-page';

test.use({
  launchOptions: {
    executablePath: CHROMIUM_PATH,
    args: [
      ...CHROMIUM_ARGS.filter((arg) => !arg.startsWith('--autoplay-policy=')),
      '--autoplay-policy=user-gesture-required',
    ],
  },
});
test.describe.configure({ timeout: 180_000 });

const ARTIST = 'Moss & Static';
const CHANNEL = 'player-autoplay-test';

interface Report {
  id: number;
  /** Whether the player's tab had a user activation as the message arrived. */
  active: boolean;
  /** Whether it had one when the last track ended. */
  endedActive: boolean | null;
  nodes: { src: string; paused: boolean; currentTime: number; duration: number }[];
  alert: string | null;
  plays: string[];
}

/** In the player's tab: the app's Media Session handlers, run on a message from the other tab. */
function installRemote(channelName: string): void {
  const handlers = new Map<string, MediaSessionActionHandler>();
  const session = navigator.mediaSession;
  const setActionHandler = session.setActionHandler.bind(session);
  session.setActionHandler = (action, handler) => {
    if (handler) handlers.set(action, handler);
    else handlers.delete(action);
    setActionHandler(action, handler);
  };
  let endedActive: boolean | null = null;
  /** Every play() of a media element: whether the tab had an activation, and its answer. */
  const plays: string[] = [];
  const play = HTMLMediaElement.prototype.play;
  // Howler's elements are not in the document: each element played reports its own end.
  const onEnded = () => (endedActive = navigator.userActivation.isActive);
  HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
    this.addEventListener('ended', onEnded);
    const active = navigator.userActivation.isActive;
    const result = play.call(this);
    const name = decodeURIComponent(this.src.split('?')[0] ?? '').replace(/^.*\/renditions\//, '');
    result.then(
      () => plays.push(`${name} active=${active}: played`),
      (error: unknown) => plays.push(`${name} active=${active}: ${String(error)}`),
    );
    return result;
  };

  const channel = new BroadcastChannel(channelName);
  channel.onmessage = ({
    data,
  }: MessageEvent<{ id: number; action?: string; seekTime?: number }>) => {
    const active = navigator.userActivation.isActive;
    if (data.action && !active)
      handlers.get(data.action)?.({
        action: data.action as MediaSessionAction,
        seekTime: data.seekTime,
      });
    channel.postMessage({
      id: data.id,
      active,
      endedActive,
      // The player's Howls, through Howler's public API (src/player/engine/howler-backend.ts).
      nodes: ((window as unknown as PlayerWindow).__soundloftPlayer?.sounds() ?? []).map(
        ({ src, howl }) => {
          const time = howl.seek();
          return {
            src,
            paused: !howl.playing(),
            currentTime: typeof time === 'number' ? time : 0,
            duration: howl.duration(),
          };
        },
      ),
      alert: document.querySelector('[aria-label="Player"] [role="alert"]')?.textContent ?? null,
      plays,
    });
  };
}

/** The other tab: sends a message (an action, or none: a report) and returns the report. */
async function remote(
  other: Page,
  message: { action?: string; seekTime?: number } = {},
): Promise<Report> {
  return other.evaluate(
    ({ name, message }) =>
      new Promise<Report>((resolve) => {
        const channel = new BroadcastChannel(name);
        const id = Math.random();
        channel.onmessage = ({ data }: MessageEvent<Report>) => {
          if (data.id !== id) return;
          channel.close();
          resolve(data);
        };
        channel.postMessage({ ...message, id });
      }),
    { name: CHANNEL, message },
  );
}

/** Waits (on the other tab only) until the player's tab has no user activation left. */
async function untilNoActivation(other: Page): Promise<void> {
  await expect
    .poll(async () => (await remote(other)).active, { timeout: 30_000, intervals: [500] })
    .toBe(false);
}

async function setUp(page: Page): Promise<{ player: PlayerPage; other: Page }> {
  await page.addInitScript(installRemote, CHANNEL);
  await signInFresh(page);
  const player = new PlayerPage(page);
  await player.openExplore(ARTIST);
  const other = await page.context().newPage();
  await other.goto('/healthz');
  return { player, other };
}

test('the next track starts at a track end with no gesture (an element unlocked earlier)', async ({
  page,
}) => {
  const { player, other } = await setUp(page);
  const [first, second] = await player.rowTitles();
  expect(second).toBeTruthy();
  await player.rowPlayButton(first!).click();
  await player.expectAudioAdvancing();
  // The next track is preloaded (in its own element) once this one's clock moves.
  await expect.poll(async () => (await player.audioNodes()).length).toBe(2);

  // From here on only the other tab acts: the seek and everything after it are not gestures.
  await untilNoActivation(other);
  const before = await remote(other);
  const playing = before.nodes.find((n) => !n.paused);
  expect(playing?.duration).toBeGreaterThan(5);
  const seeked = await remote(other, { action: 'seekto', seekTime: playing!.duration - 2 });
  expect(seeked.active).toBe(false);

  let report = seeked;
  await expect
    .poll(
      async () => {
        report = await remote(other);
        return report.nodes.some((n) => n.src !== playing!.src && !n.paused && n.currentTime > 0.3);
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  expect(report.endedActive).toBe(false);
  // The next track's play() was made with no user activation, and the browser let it play.
  const next = report.nodes.find((n) => n.src !== playing!.src && !n.paused)!;
  const name = decodeURIComponent(next.src.split('?')[0]!).replace(/^.*\/renditions\//, '');
  expect(report.plays, report.plays.join('\n')).toContain(`${name} active=false: played`);
  expect(report.alert).toBeNull();
  await player.expectBarTitle(second!);
});
