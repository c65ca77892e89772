/**
 * Invented lyrics for the demo tracks that have synced lyrics. Verse lines go to the verse
 * phrases of the song and chorus lines to its chorus phrases, in order, so every line starts on
 * the bar where the melody phrase it belongs to starts.
 */

export interface LyricsDef {
  verses: string[];
  chorus: string[];
  /** Optional annotations by line text. */
  notes?: Record<string, string>;
}

export const LYRICS: Record<string, LyricsDef> = {
  'Harbor Lights': {
    verses: [
      'Engine hum and the tide rolls in',
      'Every streetlamp a violet pin',
      'Radio whispers a song we knew',
      'Driving the coast with the night in view',
      'Mirrors full of the neon glow',
      'Nowhere to be and a long way to go',
    ],
    chorus: [
      'Harbor lights, carry me home',
      'Over the water, never alone',
      'Harbor lights, stay till the dawn',
      'Keep the tape rolling, keep driving on',
    ],
    notes: { 'Harbor lights, carry me home': 'The hook the whole album circles back to.' },
  },
  'Kettle On': {
    verses: [
      'Rain on the window, tapping in time',
      'Steam on the glass draws a crooked line',
      'Socks on the radiator, book on my knee',
      'Nothing today that needs much of me',
      'Clock in the hallway forgets to chime',
      'Kettle on, kettle on, there is always time',
    ],
    chorus: [
      'Kettle on, the morning can wait',
      'Slow little songs and a second plate',
      'Kettle on, and the city is grey',
      'Let it be grey for the rest of the day',
    ],
  },
  'Sunday Social': {
    verses: [
      'Doors swing open, the bassline calls',
      'Sunlight leaking down brick walls',
      'Strangers turning into friends',
      'Nobody asks when the music ends',
      'Hands up high for the organ line',
      'Sunday feeling, right on time',
    ],
    chorus: [
      'Move your feet, it is Sunday social',
      'Everybody here is local',
      'Move your feet, one more song',
      'Sunday social all night long',
    ],
  },
  'Hollow Oak': {
    verses: [
      'Down by the hollow oak we carved our names',
      'Summer was endless and nothing was the same',
      'River ran slower than the stories we told',
      'Leaves in the water turning copper and gold',
      'Years have gone by like the geese in the sky',
      'The oak is still standing and so am I',
    ],
    chorus: [
      'Hollow oak, hold what we left',
      'Every small promise and every breath',
      'Hollow oak, rooted and wide',
      'Keep all our summers safe inside',
    ],
    notes: { 'Down by the hollow oak we carved our names': 'Written under the tree on the cover.' },
  },
  Glasshouse: {
    verses: [
      'Living in a glasshouse, everybody sees',
      'Every little heartbreak, every little breeze',
      'Light comes pouring through me like a summer storm',
      'Cold outside the windows but the glass is warm',
      'Paint it with a fingertip, draw a door',
      'Step into the daylight, out onto the floor',
    ],
    chorus: [
      'Glasshouse, let the whole world look',
      'Open me up like a picture book',
      'Glasshouse, shining and thin',
      'All of the colours are letting me in',
    ],
  },
  'Paper Lanterns': {
    verses: [
      'Folded paper, candle small',
      'Lanterns drifting past the wall',
      'Every wish a little flame',
      'Every flame a whispered name',
      'River carries what we send',
      'Round the bend and round the bend',
    ],
    chorus: [
      'Paper lanterns, rise and go',
      'Light the water down below',
      'Paper lanterns, one by one',
      'Follow them into the sun',
    ],
    notes: { 'Folded paper, candle small': 'Demo artist: edit these lyrics in the lyrics studio.' },
  },
};
