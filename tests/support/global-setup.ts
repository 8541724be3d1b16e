import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
}
