// The account's quick messages: the common scoped shape of the configuration lists (db/scoped.ts).
import { quickMessages } from '../../db/schema';
import { scopedRepo } from '../../db/scoped';

export type QuickMessageRow = typeof quickMessages.$inferSelect;

export const quickMessagesRepo = scopedRepo(quickMessages);
