/**
 * The search worker's logic (docs/search.md, "In a Web Worker"), without the worker: it owns
 * the ranked index, keeps it in step with the mirror incrementally and answers queries. The
 * worker (`search.worker.ts`) wraps it; where no Worker exists (unit tests) the page runs it
 * in-process behind the same messages.
 */
import { buildSearchDocs, type DocSources } from './docs';
import { CatalogueIndex, type Personal } from './engine';
import type { FromSearchWorker, ToSearchWorker } from './protocol';

export class SearchHost {
  #index: CatalogueIndex | null = null;
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
      if (this.#index) {
        if (this.#index.sync(docs) === 0 && this.#version > 0) continue;
      } else {
        const index = new CatalogueIndex();
        await index.addAsync(docs);
        this.#index = index;
      }
      this.#indexed(performance.now() - t0);
    }
  }

  #indexed(ms: number) {
    this.post({
      type: 'indexed',
      version: ++this.#version,
      documents: this.#index?.size ?? 0,
      ms,
    });
  }

  handle(message: ToSearchWorker): void {
    switch (message.type) {
      case 'search': {
        const t0 = performance.now();
        const index = this.#index;
        let answer = null;
        if (index) {
          const ranked = index.search(message.query, {
            limit: message.limit,
            personal: this.#personal,
          });
          const wanted = message.suggest && (ranked.hits.length === 0 || ranked.partial);
          const suggestion = wanted ? index.suggest(message.query) : null;
          answer = { ...ranked, suggestion };
        }
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
        if (!this.#index) return;
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
