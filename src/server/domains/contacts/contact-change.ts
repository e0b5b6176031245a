// A contact's tags and variables changed in SQL, from the row's current value: a concurrent change to the
// other tags (or variables) is kept. Used by the flow engine's tag steps and by the integrations.
import { sql } from 'drizzle-orm';
import { contacts } from '../../db/schema';

/** The contacts.tags value after adding or removing `ids` (each tag once). */
export function tagsAfter(change: 'add' | 'remove', ids: readonly string[]) {
  const list = JSON.stringify(ids);
  return change === 'add'
    ? sql`(select coalesce(jsonb_agg(distinct t), '[]'::jsonb) from jsonb_array_elements(${contacts.tags} || ${list}::jsonb) t)`
    : sql`(select coalesce(jsonb_agg(t), '[]'::jsonb) from jsonb_array_elements(${contacts.tags}) t where not (${list}::jsonb @> jsonb_build_array(t)))`;
}

/** The contacts.data value with `data` merged in (its keys replace the same keys). */
export const dataAfter = (data: Readonly<Record<string, unknown>>) =>
  sql`${contacts.data} || ${JSON.stringify(data)}::jsonb`;
