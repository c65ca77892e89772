/**
 * Waveform peaks in BBC audiowaveform's JSON format (version 2, 8 bits, one channel: the
 * channels' mix), the format wavesurfer.js and peaks.js read: `data` holds min, max pairs.
 */
export interface WaveformPeaks {
  version: 2;
  channels: 1;
  sample_rate: number;
  samples_per_pixel: number;
  bits: 8;
  length: number;
  data: number[];
}

export const TARGET_PAIRS = 1000;

export function computePeaks(
  channelData: Float32Array[],
  sampleRate: number,
  targetPairs = TARGET_PAIRS,
): WaveformPeaks {
  const frames = channelData[0]?.length ?? 0;
  const samplesPerPixel = Math.max(1, Math.ceil(frames / targetPairs));
  const length = Math.ceil(frames / samplesPerPixel);
  const data: number[] = new Array<number>(length * 2);
  const channels = channelData.length || 1;
  const toByte = (v: number) => Math.max(-128, Math.min(127, Math.round(v * 127)));
  for (let pixel = 0; pixel < length; pixel++) {
    const start = pixel * samplesPerPixel;
    const end = Math.min(frames, start + samplesPerPixel);
    let min = 0;
    let max = 0;
    for (let i = start; i < end; i++) {
      let mix = 0;
      for (const channel of channelData) mix += channel[i] as number;
      mix /= channels;
      if (mix < min) min = mix;
      if (mix > max) max = mix;
    }
    data[pixel * 2] = toByte(min);
    data[pixel * 2 + 1] = toByte(max);
  }
  return {
    version: 2,
    channels: 1,
    sample_rate: sampleRate,
    samples_per_pixel: samplesPerPixel,
    bits: 8,
    length,
    data,
  };
}
