// A contact seen from a conversation (spec 2 §3, §7): the drawer and the quick edits. Owners and managers
// reach every contact of the account; attendants those with a conversation in their departments. A change
// is announced as conversation_updated for the contact's open conversations, so every list shows it.
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { ContactDetails } from '../../../shared/contract/contacts';
import { messages as texts } from '../../../shared/messages';
import { contacts, conversations, tags } from '../../db/schema';
import type { SignedInContext } from '../../http/context';
import { AppError } from '../../http/errors';
import { loadConversation, toContact } from '../conversations/present';

type Ctx = SignedInContext;
type ContactRow = typeof contacts.$inferSelect;

const toDetails = (c: ContactRow): ContactDetails => ({
  ...toContact(c),
  data: c.data,
  annotations: c.annotations,
});

async function visibleContact(ctx: Ctx, contactId: string): Promise<ContactRow> {
  const { db } = ctx.services;
  const { user } = ctx;
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.id, contactId), eq(contacts.accountId, user.accountId), eq(contacts.filed, false)))
    .limit(1);
  if (!row) throw new AppError(texts.notFound);
  if (user.userRole === 'user') {
    const seen = user.departments.length
      ? await db
          .select({ id: conversations.id })
          .from(conversations)
          .where(
            and(eq(conversations.contactId, row.id), inArray(conversations.departmentId, user.departments)),
          )
          .limit(1)
      : [];
    if (!seen.length) throw new AppError(texts.notFound);
  }
  return row;
}

async function saved(ctx: Ctx, contactId: string, set: Partial<typeof contacts.$inferInsert>) {
  const { db, realtime } = ctx.services;
  const [row] = await db.update(contacts).set(set).where(eq(contacts.id, contactId)).returning();
  if (!row) throw new AppError(texts.notFound);
  const open = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.contactId, contactId), isNull(conversations.finishedAt)));
  for (const { id } of open) {
    const view = await loadConversation(db, id);
    if (view)
      realtime.toConversation(ctx.user.accountId, view.department, {
        type: 'conversation_updated',
        message: view,
      });
  }
  return toDetails(row);
}

export async function getContact(ctx: Ctx, contactId: string) {
  return toDetails(await visibleContact(ctx, contactId));
}

export async function changeContactName(ctx: Ctx, contactId: string, overrideName: string) {
  await visibleContact(ctx, contactId);
  return saved(ctx, contactId, { overrideName: overrideName.trim() || null });
}

export async function changeContactTags(ctx: Ctx, contactId: string, tagIds: string[]) {
  await visibleContact(ctx, contactId);
  const unique = [...new Set(tagIds)];
  if (unique.length) {
    const found = await ctx.services.db
      .select({ id: tags.id })
      .from(tags)
      .where(and(eq(tags.accountId, ctx.user.accountId), eq(tags.filed, false), inArray(tags.id, unique)));
    if (found.length !== unique.length) throw new AppError(texts.tagNotFound);
  }
  return saved(ctx, contactId, { tags: unique });
}

export async function changeContactAnnotationsAndData(
  ctx: Ctx,
  p: { contact_id: string; data: Record<string, unknown>; new_annotation?: string },
) {
  const contact = await visibleContact(ctx, p.contact_id);
  const entries = Object.entries(p.data)
    .map(([k, v]) => [k.trim(), v] as const)
    .filter(([k]) => k !== '');
  // ' cpf' and 'cpf' are one variable once trimmed: refused as the dialog refuses it, never one silently lost.
  if (new Set(entries.map(([k]) => k)).size !== entries.length)
    throw new AppError(texts.contactVariableDuplicate);
  const data = Object.fromEntries(entries);
  const text = p.new_annotation?.trim();
  const annotations = text
    ? [...contact.annotations, { user: ctx.user.name, created: new Date().toISOString(), text }]
    : contact.annotations;
  return saved(ctx, p.contact_id, { data, annotations });
}
