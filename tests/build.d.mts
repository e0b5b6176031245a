// Types of tests/build.mjs (a plain script, so `node tests/build.mjs` runs without a loader).
export const DIST: string;
export const BUILD_NODE_ENV: string;
export function sourcesHash(): string;
export function freshStamp(): { sources: string; nodeEnv: string; builtAt: string } | undefined;
export function ensureBuilt(opts?: { quiet?: boolean }): boolean;
