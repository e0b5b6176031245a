// The browser tests serve dist/: build it unless it already is the build of today's sources (tests/build.mjs).
import { ensureBuilt } from '../build.mjs';

export default function globalSetup() {
  ensureBuilt({ quiet: true });
}
