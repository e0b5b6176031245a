// Row types that several layers name (the access rule, the channels' ports, the auth and chips domains): here,
// beside the schema, so that naming a row never imports a domain (no import cycle, even of types).
import type { accounts, chips, users } from './schema';

export type UserRow = typeof users.$inferSelect;
export type AccountRow = typeof accounts.$inferSelect;
export type ChipRow = typeof chips.$inferSelect;
