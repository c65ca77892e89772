/**
 * The search worker's logic (docs/search.md, "In a Web Worker"), without the worker: it owns
 * the ranked index, keeps it in step with the mirror incrementally and answers queries. The
 * worker (`search.worker.ts`) wraps it; where no Worker exists (unit tests) the page runs it
 * in-process behind the same messages.
 */
import { buildSearchDocs, type DocSources } from './docs';
import { CatalogueIndex, type Personal } from './engine';
import type { Track } from '../../db/models';
import type { FromSearchWorker, ToSearchWorker } from './protocol';

export class SearchHost {
  /**
   * Answers from the start: empty until the mirror is read, then growing chunk by chunk during
   * the first build (most played first), with the server's rows joining it all along.
   */
  readonly #index = new CatalogueIndex();
  /** The first build from the mirror has finished (until then answers say `preparing`). */
  #ready = false;
  #building: Promise<void> | null = null;
  #latest: DocSources | null = null;
  #version = 0;
  #personal: Personal = {};

  constructor(private readonly post: (message: FromSearchWorker) => void) {}

  /** A new read of the mirror: the first builds the index, later ones sync it. */
  setSources(sources: DocSources): Promise<void> {
    this.#latest = sources;
    this.#building ??= this.#drain().finally(() => {
      this.#building = null;
    });
    return this.#building;
  }

  async #drain() {
    while (this.#latest) {
      const sources = this.#latest;
      this.#latest = null;
      const t0 = performance.now();
      const docs = buildSearchDocs(sources);
      if (this.#ready) {
        if (this.#index.sync(docs) === 0) continue;
      } else {
        // Most played first: a search during the build finds what listeners look for most.
        docs.sort((a, b) => b.plays - a.plays);
        await this.#index.addAsync(docs, { onChunk: () => this.#indexed(performance.now() - t0) });
        this.#index.dropProvisional();
        this.#ready = true;
      }
      this.#indexed(performance.now() - t0);
    }
  }

  /**
   * Cold start: the mirror's newest tracks (`readQuickStart`), read in a moment while the whole
   * mirror takes seconds. They answer until the first build confirms them (or drops them).
   */
  quickStart(tracks: readonly Track[]): void {
    if (this.#ready || tracks.length === 0) return;
    this.#index.addTracks(tracks, { provisional: true });
    this.#indexed(0);
  }

  #indexed(ms: number) {
    this.post({
      type: 'indexed',
      version: ++this.#version,
      documents: this.#index.size,
      ms,
      ready: this.#ready,
    });
  }

  handle(message: ToSearchWorker): void {
    switch (message.type) {
      case 'search': {
        const t0 = performance.now();
        const index = this.#index;
        const ranked = index.search(message.query, {
          limit: message.limit,
          personal: this.#personal,
        });
        const wanted = message.suggest && (ranked.hits.length === 0 || ranked.partial);
        // No correction from a partial index: the word may simply not be indexed yet.
        const suggestion = wanted && this.#ready ? index.suggest(message.query) : null;
        const answer = { ...ranked, suggestion, preparing: !this.#ready };
        this.post({ type: 'answer', seq: message.seq, answer, ms: performance.now() - t0 });
        return;
      }
      case 'personal':
        this.#personal = {
          likedTrackIds: new Set(message.likedTrackIds),
          followedIds: new Set(message.followedIds),
        };
        this.#indexed(0);
        return;
      case 'addTracks': {
        const before = this.#index.size;
        this.#index.addTracks(message.tracks);
        if (this.#index.size !== before) this.#indexed(0);
        return;
      }
      case 'sources':
        void this.setSources(message.sources);
        return;
    }
  }
}
