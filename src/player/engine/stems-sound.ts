/**
 * The four stems as one Sound, on Web Audio: one AudioContext, each stem decoded to an
 * AudioBuffer, played by AudioBufferSourceNodes started at the same context time with the same
 * offset (sample-accurate sync, which separate media elements cannot give), each through its own
 * GainNode (the mix) into a master gain (the player's volume). Pause stops the sources and keeps
 * the position; play and seek start fresh sources (a source node plays once).
 */
import type { Sound, SoundEvents } from './audio-backend';

export interface StemsSound extends Sound {
  setGains(gains: readonly number[]): void;
  setMaster(volume: number): void;
  /** Sources playing now (0 paused or not loaded). */
  playingSources(): number;
}

/** Scheduling ahead of the context clock so every source starts on the same sample. */
const START_AHEAD_S = 0.05;

export function createStemsSound(
  urls: readonly string[],
  events: SoundEvents,
  onSources: (n: number) => void = () => undefined,
): StemsSound {
  const ctx = new AudioContext();
  const master = ctx.createGain();
  master.connect(ctx.destination);
  const gains = urls.map(() => {
    const g = ctx.createGain();
    g.connect(master);
    return g;
  });
  const abort = new AbortController();
  let buffers: AudioBuffer[] | null = null;
  let sources: AudioBufferSourceNode[] = [];
  let offset = 0;
  let startedAt: number | null = null;
  let wantPlay = false;
  let unloaded = false;

  const duration = () => (buffers ? Math.max(...buffers.map((b) => b.duration)) : 0);
  const position = () =>
    startedAt === null
      ? offset
      : Math.min(duration(), offset + Math.max(0, ctx.currentTime - startedAt));

  const stopSources = () => {
    for (const s of sources) {
      s.onended = null;
      s.stop();
      s.disconnect();
    }
    sources = [];
    startedAt = null;
    onSources(0);
  };

  const start = () => {
    if (!buffers || unloaded) return;
    void ctx.resume();
    const when = ctx.currentTime + START_AHEAD_S;
    const at = Math.min(offset, duration());
    sources = buffers.map((buffer, i) => {
      const source = ctx.createBufferSource();
      source.buffer = buffer;
      source.connect(gains[i] as GainNode);
      source.start(when, Math.min(at, buffer.duration));
      return source;
    });
    startedAt = when;
    offset = at;
    // The longest stem ends the track.
    const longest = sources.reduce((a, b) =>
      (b.buffer?.duration ?? 0) > (a.buffer?.duration ?? 0) ? b : a,
    );
    longest.onended = () => {
      stopSources();
      offset = 0;
      wantPlay = false;
      events.onEnd();
    };
    onSources(sources.length);
    events.onPlay();
  };

  Promise.all(
    urls.map(async (url) => {
      const res = await fetch(url, { signal: abort.signal });
      if (!res.ok) throw new Error(`stem ${url}: HTTP ${res.status}`);
      return ctx.decodeAudioData(await res.arrayBuffer());
    }),
  ).then(
    (decoded) => {
      if (unloaded) return;
      buffers = decoded;
      events.onLoad();
      if (wantPlay) start();
    },
    (error: unknown) => {
      if (!unloaded) events.onLoadError(error);
    },
  );

  return {
    play() {
      wantPlay = true;
      if (buffers && startedAt === null) start();
    },
    pause() {
      wantPlay = false;
      if (startedAt !== null) {
        offset = position();
        stopSources();
      }
      events.onPause();
    },
    position,
    seek(seconds) {
      offset = Math.max(0, seconds);
      if (startedAt !== null) {
        stopSources();
        start();
      }
    },
    duration,
    unload() {
      unloaded = true;
      abort.abort();
      stopSources();
      void ctx.close();
    },
    setGains(values) {
      values.forEach((v, i) => gains[i]?.gain.setTargetAtTime(v, ctx.currentTime, 0.01));
    },
    setMaster(volume) {
      master.gain.setTargetAtTime(volume, ctx.currentTime, 0.01);
    },
    playingSources: () => sources.length,
  };
}
