import { join } from 'node:path';

/** The repository's root: servers run from it, tests and tools read its files. */
export const ROOT = join(import.meta.dirname, '../..');
