import { Switch } from '@mantine/core';
import * as actions from '../actions';
import { usePlaybackModes } from '../hooks/use-playback-modes';

/** The loudness normalisation setting (on by default; saved with the player). */
export function NormaliseSwitch() {
  const { normalise } = usePlaybackModes();
  return (
    <Switch
      checked={normalise}
      onChange={(event) => actions.setNormalise(event.currentTarget.checked)}
      label="Normalise volume"
      description="Plays every track at a similar loudness"
    />
  );
}

/** The autoplay setting (on by default; saved with the player; docs/player.md § Autoplay). */
export function AutoplaySwitch() {
  const { autoplay } = usePlaybackModes();
  return (
    <Switch
      checked={autoplay}
      onChange={(event) => actions.setAutoplay(event.currentTarget.checked)}
      label="Autoplay"
      description="Autoplay similar tracks when your queue ends"
    />
  );
}
