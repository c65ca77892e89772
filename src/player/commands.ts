/**
 * One-shot commands from the actions to the audio engine: what the store's state cannot say by
 * itself (a seek, or a restart of the track that is already loaded).
 */
export type PlayerCommand = { type: 'seek'; time: number };

type Listener = (command: PlayerCommand) => void;
const listeners = new Set<Listener>();

export function onPlayerCommand(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function emitPlayerCommand(command: PlayerCommand): void {
  for (const listener of listeners) listener(command);
}
