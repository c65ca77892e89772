/** An audio backend for tests: records what the engine asks and lets a test fire audio events. */
import type { AudioBackend, Sound, SoundEvents, SoundOptions } from './audio-backend';

export class FakeSound implements Sound {
  playing = false;
  unloaded = false;
  currentPosition = 0;
  length = 0;
  readonly calls: string[] = [];
  readonly src: string;
  readonly options: SoundOptions;
  readonly events: SoundEvents;

  constructor(src: string, options: SoundOptions, events: SoundEvents) {
    this.src = src;
    this.options = options;
    this.events = events;
  }

  play(): void {
    this.calls.push('play');
    this.playing = true;
  }
  pause(): void {
    this.calls.push('pause');
    this.playing = false;
    this.events.onPause();
  }
  position(): number {
    return this.currentPosition;
  }
  seek(seconds: number): void {
    this.calls.push(`seek:${seconds}`);
    this.currentPosition = seconds;
  }
  duration(): number {
    return this.length;
  }
  unload(): void {
    this.calls.push('unload');
    this.unloaded = true;
  }

  /** The audio can play: its length is known. */
  load(length: number): void {
    this.length = length;
    this.events.onLoad();
  }
  /** Playback actually started: 'playing', then the clock moves. */
  started(): void {
    this.events.onPlay();
    this.currentPosition += 0.01;
  }
  end(): void {
    this.playing = false;
    this.currentPosition = this.length;
    this.events.onEnd();
  }
}

export class FakeBackend implements AudioBackend {
  readonly sounds: FakeSound[] = [];
  volume = 1;

  createSound(src: string, options: SoundOptions, events: SoundEvents): Sound {
    const sound = new FakeSound(src, options, events);
    this.sounds.push(sound);
    return sound;
  }
  setVolume(volume: number): void {
    this.volume = volume;
  }
  /** The live (not unloaded) sound for a URL ending in `/${id}.mp3`. */
  sound(id: string): FakeSound {
    const found = this.sounds.filter((s) => s.src.endsWith(`/${id}.mp3`) && !s.unloaded).at(-1);
    if (!found) throw new Error(`No live sound for ${id}`);
    return found;
  }
  live(): string[] {
    return this.sounds.filter((s) => !s.unloaded).map((s) => s.src.replace(/^.*\/|\.mp3$/g, ''));
  }
}
