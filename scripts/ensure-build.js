// `npm start` builds first when the build is missing or older than any source it is made from.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const BUILD_OUTPUTS = ['dist/server/index.js', 'dist/client/.vite/manifest.json'];
const SOURCES = ['client', 'server', 'shared', 'vite.config.ts', 'package-lock.json'];

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

const builtAt = Math.min(...BUILD_OUTPUTS.map((path) => (existsSync(path) ? statSync(path).mtimeMs : 0)));
const changedAt = Math.max(...SOURCES.filter((path) => existsSync(path)).map(newestMtime));
if (builtAt < changedAt) {
  console.log(builtAt === 0 ? 'No build found: building…' : 'Sources changed since the last build: rebuilding…');
  execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
}
