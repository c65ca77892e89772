/**
 * The search worker (docs/search.md, "In a Web Worker"): the ranked index lives here, off the
 * main thread, so a keystroke costs the page one message. It reads the mirror itself (Dexie
 * works in workers, and its live queries see the page's writes) and keeps the index in step.
 */
import { observe } from '../../db';
import { readMirrorSources, readQuickStart } from './mirror-sources';
import type { FromSearchWorker, ToSearchWorker } from './protocol';
import { SearchHost } from './search-host';

interface WorkerScope {
  postMessage(message: FromSearchWorker): void;
  onmessage: ((event: MessageEvent<ToSearchWorker>) => void) | null;
}
const scope = globalThis as unknown as WorkerScope;

const host = new SearchHost((message) => scope.postMessage(message));
let stopMirror: (() => void) | null = null;

scope.onmessage = (event) => {
  const message = event.data;
  // The bench hands over its sources; the app's page leaves the mirror to the worker.
  if (message.type === 'sources') {
    stopMirror?.();
    stopMirror = null;
  }
  host.handle(message);
};

stopMirror = observe(readMirrorSources, (sources) => void host.setSources(sources));
// The newest tracks answer first, while the whole mirror is read (a no-op once it is indexed).
void readQuickStart().then((tracks) => host.quickStart(tracks));
