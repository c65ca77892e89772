/**
 * Regenerates src/routeTree.gen.ts from src/routes without a build (the Vite plugin does the same
 * on build and dev). `npm run gen:routes` after adding or renaming a route file.
 */
import { Generator, getConfig } from '@tanstack/router-generator';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const config = getConfig(
  {
    target: 'react',
    routesDirectory: './src/routes',
    generatedRouteTree: './src/routeTree.gen.ts',
    quoteStyle: 'single',
  },
  root,
);
await new Generator({ config, root }).run();
console.info('src/routeTree.gen.ts is current');
