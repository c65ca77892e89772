/**
 * `npm run bench [-- section ...]`: prints figures for this machine. Never pass/fail: timing
 * decides no test. Sections: frontend, lighthouse, lighthouse-auth, profile, trace-offline, scale and insights (not in the default set), rest, ops, storage, sync, seed, explore, search, realtime, player, stems, offline, upload (all by default). More
 * join as the product grows.
 */
import { cpus, totalmem } from 'node:os';
import { ensureBuild } from '../server/build/ensure-build';
import { ROOT_DIR, loadConfig } from '../server/config';

const requested = process.argv.slice(2);
const wants = (section: string) => requested.length === 0 || requested.includes(section);
/** Sections that run only when named (diagnostics rather than figures to track). */
const named = (section: string) => requested.includes(section);

const { distDir } = loadConfig();
console.log(
  `Soundloft bench: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
);

/** The production build, made once and only for the sections that load pages. */
let built = false;
function ensureApp() {
  if (built) return;
  built = true;
  const build = ensureBuild(ROOT_DIR, distDir, () => undefined);
  console.log(
    `Build: ${build.built ? `built in ${(build.ms / 1000).toFixed(1)} s` : 'up to date'}`,
  );
}

if (wants('frontend')) {
  ensureApp();
  const { measureFrontend, printFrontend } = await import('./frontend');
  printFrontend(await measureFrontend(distDir));
  const { measureAppPages, printAppPages } = await import('./frontend-app');
  printAppPages(await measureAppPages(distDir, ['/home', '/explore', '/library']));
}

if (named('lighthouse-auth')) {
  // The auth pages (docs/auth.md, "Prerendered auth pages") next to the landing page, signed out.
  ensureApp();
  const { printLighthouse, runLighthouse } = await import('./lighthouse');
  printLighthouse(await runLighthouse(distDir, ['/', '/login', '/signup', '/forgot-password']));
}

if (wants('lighthouse')) {
  ensureApp();
  const { printLighthouse, runLighthouse } = await import('./lighthouse');
  printLighthouse(await runLighthouse(distDir, ['/', '/faq', '/login']));
  const appPages = [
    '/home',
    '/explore',
    '/library',
    '/track/{track}',
    '/artist/{artist}',
    '/profile',
  ];
  printLighthouse(
    await runLighthouse(distDir, appPages, { signedInAs: 'listener@soundloft.local' }),
    'signed in as the demo listener (returning visit: session and mirror kept)',
  );
}

if (named('profile')) {
  ensureApp();
  const { printProfiles, profilePages } = await import('./profile-pages');
  printProfiles(
    await profilePages(distDir, [
      '/home',
      '/explore',
      '/library',
      '/track/{track}',
      '/artist/{artist}',
    ]),
  );
}

if (wants('rest')) {
  const { benchRest } = await import('./rest');
  await benchRest();
}

if (named('insights')) {
  const { benchInsights } = await import('./insights');
  await benchInsights();
}

if (named('scale')) {
  const { benchScale } = await import('./scale');
  await benchScale();
}

if (wants('ops')) {
  const { benchOps } = await import('./ops');
  await benchOps();
}

if (wants('storage')) {
  const { benchStorage } = await import('./storage');
  await benchStorage();
  const { benchStorageDiskVsS3 } = await import('./storage-s3');
  await benchStorageDiskVsS3();
}

if (wants('sync')) {
  const { benchSync } = await import('./sync');
  await benchSync();
}

if (wants('seed')) {
  const { benchSeed } = await import('./seed');
  await benchSeed();
}

if (wants('explore')) {
  const { benchExplore } = await import('./explore');
  await benchExplore();
}

if (wants('search')) {
  const { benchSearch } = await import('./search');
  await benchSearch();
}

if (wants('realtime')) {
  const { benchRealtime } = await import('./realtime');
  await benchRealtime();
}

if (wants('stems')) {
  const { benchStems } = await import('./stems');
  await benchStems();
}

if (wants('player')) {
  ensureApp();
  const { benchPlayer } = await import('./player');
  await benchPlayer(distDir);
}

if (wants('offline')) {
  ensureApp();
  const { benchOffline } = await import('./offline');
  await benchOffline(distDir);
}

if (named('trace-offline')) {
  ensureApp();
  const { traceOffline } = await import('./trace-offline');
  await traceOffline(distDir);
}

if (wants('upload')) {
  const { benchUpload } = await import('./upload');
  await benchUpload();
}
