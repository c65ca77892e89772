/** Prints how long `npm run test:security` took, with the load average (CI's 25-minute budget). */
import { loadavg } from 'node:os';

export default function setup() {
  const started = Date.now();
  return () => {
    const s = ((Date.now() - started) / 1000).toFixed(1);
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(`test:security took ${s} s (load average ${load})`);
  };
}
