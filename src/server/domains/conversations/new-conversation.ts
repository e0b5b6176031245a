// New conversation (spec 2 §5) and the finished-conversations list (spec 2 §2.2).
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Payload } from '../../../shared/contract';
import type { Conversation } from '../../../shared/contract/conversations';
import type { HistoryConversation } from '../../../shared/contract/new-conversation';
import { messages as texts } from '../../../shared/messages';
import { normalizePhone } from '../../../shared/phone';
import { actorSeesDepartment, contactReachCondition, narrowDepartments } from '../../access';
import { ChannelError } from '../../channels/adapter';
import { chips, contacts, conversations, departments, messages } from '../../db/schema';
import type { SignedInContext } from '../../http/context';
import { AppError } from '../../http/errors';
import { chatbotsRepo } from '../chatbots/chatbots.repo';
import { flowsRepo } from '../flows/flows.repo';
import { sendConversationMessage, visibleChip } from './conversations.service';
import { contactByPhone, openTeamConversation } from './open-conversation';
import { loadConversation, toContact, toConversation } from './present';
import { usableTemplates } from './templates';

type Ctx = SignedInContext;

const likeOf = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function contactMatch(text: string) {
  const digits = text.replace(/\D/g, '');
  return or(
    ilike(contacts.name, likeOf(text)),
    ilike(contacts.overrideName, likeOf(text)),
    digits.length >= 3 ? sql`${contacts.phone} like ${`%${digits}%`}` : undefined,
  );
}

export async function contactsForNewConversation(
  ctx: Ctx,
  p: { query: string; page: number; itemsPerPage: number },
) {
  const text = p.query.trim();
  const where = and(
    eq(contacts.accountId, ctx.actor.accountId),
    eq(contacts.filed, false),
    contactReachCondition(ctx.actor),
    text ? contactMatch(text) : undefined,
  );
  const { db } = ctx.services;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(contacts)
      .where(where)
      .orderBy(asc(sql`lower(coalesce(${contacts.overrideName}, ${contacts.name}))`), asc(contacts.id))
      .limit(p.itemsPerPage)
      .offset((p.page - 1) * p.itemsPerPage),
    db.select({ n: count() }).from(contacts).where(where),
  ]);
  return { contacts: rows.map(toContact), total: total?.n ?? 0 };
}

export async function templatesByWaba(ctx: Ctx, waba: string) {
  const rows = await ctx.services.db
    .select()
    .from(chips)
    .where(
      and(
        eq(chips.accountId, ctx.actor.accountId),
        eq(chips.waba, waba),
        eq(chips.official, true),
        eq(chips.filed, false),
      ),
    );
  const chip = rows.find((c) => actorSeesDepartment(ctx.actor, c.departmentId));
  if (!chip) throw new AppError(texts.notFound);
  return usableTemplates(ctx.services, chip);
}

export async function startNewConversation(
  ctx: Ctx,
  p: Payload<'start-new-conversation'>,
): Promise<Conversation> {
  const { db, realtime, channels } = ctx.services;
  const chip = await visibleChip(ctx, p.chip);
  if (chip.status !== 'open') throw new AppError(texts.chipDisconnected);

  let departmentId = chip.departmentId;
  if (p.department) {
    const [department] = await db
      .select({ id: departments.id })
      .from(departments)
      .where(
        and(
          eq(departments.id, p.department),
          eq(departments.accountId, ctx.actor.accountId),
          eq(departments.filed, false),
        ),
      );
    if (!department || !actorSeesDepartment(ctx.actor, department.id))
      throw new AppError(texts.departmentNotFound);
    departmentId = department.id;
  }
  if (!actorSeesDepartment(ctx.actor, departmentId)) throw new AppError(texts.departmentNotFound);

  let template: { name: string; language: string; preview: string } | undefined;
  if (chip.official) {
    if (!p.template) throw new AppError(texts.scheduleTemplateRequired);
    const wanted = p.template;
    template = (await usableTemplates(ctx.services, chip)).find(
      (t) => t.name === wanted.name && t.language === wanted.language,
    );
    if (!template) throw new AppError(texts.newConversationTemplateNotFixed);
  }

  let contact: typeof contacts.$inferSelect | undefined;
  if (p.contact_id) {
    [contact] = await db
      .select()
      .from(contacts)
      .where(
        and(
          eq(contacts.id, p.contact_id),
          eq(contacts.accountId, ctx.actor.accountId),
          eq(contacts.filed, false),
          contactReachCondition(ctx.actor),
        ),
      )
      .limit(1);
    if (!contact) throw new AppError(texts.notFound);
  } else if (p.phone) {
    const phone = normalizePhone(p.phone.startsWith('+') ? p.phone : `+${p.phone.replace(/\D/g, '')}`);
    if (!phone) throw new AppError(texts.invalidPhone);
    let channelContactId: string | null = null;
    if (!chip.official) {
      // A new number on a non-official channel: does it have the messaging app? (spec 2 §5)
      try {
        const found = await channels.adapter(chip).checkPhone(chip, phone);
        if (!found.exists) throw new AppError(texts.newConversationPhoneNotOnWhatsapp);
        channelContactId = found.id;
      } catch (err) {
        if (err instanceof ChannelError) throw new AppError(err.message);
        throw err;
      }
    }
    contact = await contactByPhone(db, ctx.actor.accountId, phone, channelContactId);
  } else {
    throw new AppError(texts.newConversationContactOrPhone);
  }

  const { conversation, created } = await openTeamConversation(db, chip, contact.id, departmentId);
  if (!actorSeesDepartment(ctx.actor, conversation.departmentId))
    throw new AppError(texts.contactHasOpenConversation);
  if (created) {
    const view = await loadConversation(db, conversation.id);
    if (view)
      realtime.toConversation(ctx.actor.accountId, view.department, {
        type: 'new_conversation',
        message: view,
        user: ctx.user.id,
      });
  }
  if (template) {
    // Once per opening: a repeated start (a retry) sends the template no second time.
    const sent = await sendConversationMessage(ctx, ctx.user, {
      conversation_id: conversation.id,
      message_id: `start-${conversation.id}`,
      text: '',
      template,
    });
    if (sent.status < 0 && sent.failure) throw new AppError(sent.failure);
  }
  return (await loadConversation(db, conversation.id)) as Conversation;
}

const lastMessage = alias(messages, 'last_message');
const endedAt = sql`coalesce(${conversations.finishedAt}, ${conversations.lastMessageAt}, ${conversations.createdAt})`;

export async function listHistory(ctx: Ctx, p: Payload<'get-conversations-by-user'>) {
  const filter = {
    text: p.filter.text ?? '',
    types: p.filter.types ?? [],
    tags: p.filter.tags ?? [],
    departments: p.filter.departments ?? [],
    finished: p.filter.finished,
  };
  const page = p.page ?? 1;
  const itemsPerPage = p.itemsPerPage ?? 10;
  if (filter.types.length === 0) throw new AppError(texts.historyTypesRequired);
  const departmentIds = narrowDepartments(ctx.actor, filter.departments.length ? filter.departments : null);
  if (departmentIds?.length === 0) return { conversations: [], total: 0 };
  const types = new Set(filter.types);
  const text = filter.text.trim();
  const where = and(
    eq(conversations.accountId, ctx.actor.accountId),
    departmentIds ? inArray(conversations.departmentId, departmentIds) : undefined,
    types.size === 1 ? eq(conversations.isManual, types.has('human')) : undefined,
    filter.finished === true ? isNotNull(conversations.finishedAt) : undefined,
    filter.finished === false ? isNull(conversations.finishedAt) : undefined,
    filter.tags.length
      ? sql`${contacts.tags} ?| array[${sql.join(
          filter.tags.map((t) => sql`${t}`),
          sql`, `,
        )}]::text[]`
      : undefined,
    text ? contactMatch(text) : undefined,
  );
  const { db } = ctx.services;
  const [rows, [total]] = await Promise.all([
    db
      .select({ conversation: conversations, contact: contacts, last: lastMessage, chip: chips })
      .from(conversations)
      .innerJoin(contacts, eq(contacts.id, conversations.contactId))
      .innerJoin(chips, eq(chips.id, conversations.chipId))
      .leftJoin(lastMessage, eq(lastMessage.id, conversations.lastMessageId))
      .where(where)
      .orderBy(desc(endedAt), desc(conversations.id))
      .limit(itemsPerPage)
      .offset((page - 1) * itemsPerPage),
    db
      .select({ n: count() })
      .from(conversations)
      .innerJoin(contacts, eq(contacts.id, conversations.contactId))
      .where(where),
  ]);
  const flowNames = await flowsRepo.names(
    db,
    ctx.actor,
    rows.flatMap((r) => (r.conversation.flowId ? [r.conversation.flowId] : [])),
  );
  const chatbotNames = await chatbotsRepo.names(
    db,
    ctx.actor,
    rows.flatMap((r) => (r.conversation.chatbotId ? [r.conversation.chatbotId] : [])),
  );
  const list: HistoryConversation[] = rows.map((r) => {
    // A flow that served it names the chatbot ('Chatbot apagado' once deleted); else its AI chatbot.
    const { flowId, chatbotId } = r.conversation;
    const bot = flowId ? flowNames.get(flowId) : chatbotId ? chatbotNames.get(chatbotId) : undefined;
    const named = flowId !== null || chatbotId !== null;
    return {
      ...toConversation(r.conversation, r.contact, r.last),
      chip_name: r.chip.filed ? null : r.chip.name,
      chatbot_name: bot && !bot.filed ? bot.name : null,
      chatbot_deleted: named && (!bot || bot.filed),
    };
  });
  return { conversations: list, total: total?.n ?? 0 };
}
