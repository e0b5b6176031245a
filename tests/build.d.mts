// Types of tests/build.mjs (a plain script, so `node tests/build.mjs` runs without a loader).
export const DIST: string;
export const BUILD_NODE_ENV: string;
export function sourcesHash(inputs?: string[]): string;
export function freshStamp(): { sources: string; nodeEnv: string; builtAt: string } | undefined;
export function ensureBuilt(opts?: { quiet?: boolean }): boolean;
/** The server's bundle of today's sources (built if missing): the path of its main module. */
export function serverMain(): Promise<string>;
