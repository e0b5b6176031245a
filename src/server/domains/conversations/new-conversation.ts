// New conversation (spec 2 §5) and the finished-conversations list (spec 2 §2.2).
import type { Payload } from '../../../shared/contract';
import type { Conversation } from '../../../shared/contract/conversations';
import type { HistoryConversation } from '../../../shared/contract/new-conversation';
import { messages as texts } from '../../../shared/messages';
import { normalizePhone } from '../../../shared/phone';
import { type Actor, actorSeesDepartment, narrowDepartments, type UserActor } from '../../access';
import { ChannelError } from '../../channels/adapter';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';
import { chatbotsRepo } from '../chatbots/chatbots.repo';
import { flowsRepo } from '../flows/flows.repo';
import type { ContactRow } from './conversation-views.repo';
import { conversationsRepo } from './conversations.repo';
import { sendConversationMessage, visibleChip } from './conversations.service';
import { historyRepo } from './history.repo';
import { contactByPhone, openTeamConversation } from './open-conversation';
import { loadConversation, toContact, toConversation } from './present';
import { usableTemplates } from './templates';

export async function contactsForNewConversation(
  services: Services,
  actor: Actor,
  p: { query: string; page: number; itemsPerPage: number },
) {
  const { rows, total } = await historyRepo.contactsPage(
    services.db,
    actor,
    p.query.trim(),
    p.page,
    p.itemsPerPage,
  );
  return { contacts: rows.map(toContact), total };
}

export async function templatesByWaba(services: Services, actor: Actor, waba: string) {
  const chip = await historyRepo.officialChipOfWaba(services.db, actor, waba);
  if (!chip) throw new AppError(texts.notFound);
  return usableTemplates(services, chip);
}

export async function startNewConversation(
  services: Services,
  actor: UserActor,
  p: Payload<'start-new-conversation'>,
): Promise<Conversation> {
  const { db, realtime, channels } = services;
  const chip = await visibleChip({ services, actor }, p.chip);
  if (chip.status !== 'open') throw new AppError(texts.chipDisconnected);

  let departmentId = chip.departmentId;
  if (p.department) {
    const department = await conversationsRepo.department(db, actor, p.department);
    if (!department || !actorSeesDepartment(actor, department.id))
      throw new AppError(texts.departmentNotFound);
    departmentId = department.id;
  }
  if (!actorSeesDepartment(actor, departmentId)) throw new AppError(texts.departmentNotFound);

  let template: { name: string; language: string; preview: string } | undefined;
  if (chip.official) {
    if (!p.template) throw new AppError(texts.scheduleTemplateRequired);
    const wanted = p.template;
    template = (await usableTemplates(services, chip)).find(
      (t) => t.name === wanted.name && t.language === wanted.language,
    );
    if (!template) throw new AppError(texts.newConversationTemplateNotFixed);
  }

  let contact: ContactRow | undefined;
  if (p.contact_id) {
    contact = await historyRepo.reachableContact(db, actor, p.contact_id);
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
    contact = await contactByPhone(db, actor.accountId, phone, channelContactId);
  } else {
    throw new AppError(texts.newConversationContactOrPhone);
  }

  const { conversation, created } = await openTeamConversation(db, chip, contact.id, departmentId);
  if (!actorSeesDepartment(actor, conversation.departmentId))
    throw new AppError(texts.contactHasOpenConversation);
  if (created) {
    const view = await loadConversation(db, conversation.id);
    if (view)
      realtime.toConversation(actor.accountId, view.department, {
        type: 'new_conversation',
        message: view,
        user: actor.userId,
      });
  }
  if (template) {
    // Once per opening: a repeated start (a retry) sends the template no second time.
    const sent = await sendConversationMessage({ services, actor }, actor.user, {
      conversation_id: conversation.id,
      message_id: `start-${conversation.id}`,
      text: '',
      template,
    });
    if (sent.status < 0 && sent.failure) throw new AppError(sent.failure);
  }
  return (await loadConversation(db, conversation.id)) as Conversation;
}

export async function listHistory(services: Services, actor: Actor, p: Payload<'get-conversations-by-user'>) {
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
  const departmentIds = narrowDepartments(actor, filter.departments.length ? filter.departments : null);
  if (departmentIds?.length === 0) return { conversations: [], total: 0 };
  const types = new Set(filter.types);
  const { db } = services;
  const { rows, total } = await historyRepo.page(db, actor, {
    departmentIds,
    manual: types.size === 1 ? types.has('human') : null,
    finished: filter.finished,
    tags: filter.tags,
    text: filter.text.trim(),
    page,
    itemsPerPage,
  });
  const flowNames = await flowsRepo.names(
    db,
    actor,
    rows.flatMap((r) => (r.conversation.flowId ? [r.conversation.flowId] : [])),
  );
  const chatbotNames = await chatbotsRepo.names(
    db,
    actor,
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
  return { conversations: list, total };
}
