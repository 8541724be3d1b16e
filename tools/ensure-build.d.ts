// Types of ./ensure-build.js (plain JavaScript, so `npm start` runs it with no compiler), for the bench.
export declare const SOURCES: readonly string[];
export declare function newestMtime(path: string): number;
export declare function ensureBuilt(job: {
  what: string;
  outputs: readonly string[];
  sources: readonly string[];
  build: () => void;
}): boolean;
