/** `npm run build`: a fresh production build of the app, precompressed and stamped. */
import { ROOT_DIR, loadConfig } from '../config';
import { ensureBuild } from './ensure-build';

const { distDir } = loadConfig();
const result = ensureBuild(ROOT_DIR, distDir, console.log, { force: true });
console.log(`Soundloft: build ready in ${(result.ms / 1000).toFixed(1)} s (${distDir})`);
