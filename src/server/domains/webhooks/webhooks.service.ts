// Webhooks' calls (spec 3 §2.13, §3 Webhook, §5 Webhook save, §7 webhooks): list, get, create or update
// (filed true removes), and the official chip's fixed-content templates. The screen's rule
// (rules/webhook-mapping.ts webhookSaveProblems) is checked again here; what only the server knows is checked
// after it: the chip, flows, chatbot and department are the account's, and the template is APPROVED with fixed
// content as the chip's provider lists it now (its components, not the client's, are stored).
import type { z } from 'zod';
import type { CallName, Calls } from '../../../shared/contract';
import type { Webhook, WebhookTemplateOption } from '../../../shared/contract/webhooks';
import { PHONE_FIELD } from '../../../shared/contract/webhooks';
import { webhookMessages as M } from '../../../shared/messages-webhooks';
import { fieldError } from '../../../shared/rules/field-error';
import { webhookSaveProblems } from '../../../shared/rules/webhook-mapping';
import type { Actor, UserActor } from '../../access';
import { ChannelError, type ChipRow, type ProviderTemplate } from '../../channels/adapter';
import { AppError, fieldFailure } from '../../http/errors';
import type { Services } from '../../services';
import { templateButtons } from '../campaigns/official-template';
import { chatbotsRepo } from '../chatbots/chatbots.repo';
import { chipsRepo } from '../chips/chips.repo';
import { fixedContent } from '../conversations/templates';
import { departmentsRepo } from '../departments/departments.repo';
import { flowsRepo } from '../flows/flows.repo';
import { apiKeysRepo } from '../integrations/api-keys.repo';
import { type WebhookRow, webhooksRepo } from './webhooks.repo';

type Payload<N extends CallName> = z.output<Calls[N]['payload']>;

/** The public address a third party posts to: absolute with PUBLIC_URL, else a path the page completes with
 * its own origin (as the /api page's examples do), never a guessed localhost. */
export const webhookUrl = (services: Services, id: string) =>
  `${services.config.serverAddress}/api/v1/webhooks/${id}`;

export function toWebhook(services: Services, r: { w: WebhookRow; chip: ChipRow | null }): Webhook {
  const { w, chip } = r;
  return {
    _id: w.id,
    name: w.name,
    url: webhookUrl(services, w.id),
    status: w.status,
    chip: chip ? { _id: chip.id, name: chip.name, official: chip.official, waba: chip.waba ?? null } : null,
    flow: w.flowId,
    template: w.template,
    template_payloads: w.templatePayloads,
    conversation_creation_rule: w.conversationCreationRule,
    redirect: w.redirect ?? null,
    chatbot: w.chatbotId,
    department: w.departmentId,
    data: w.data,
    fields: w.fields,
    created: w.createdAt.toISOString(),
    filed: w.filed,
  };
}

export async function listWebhooks(services: Services, actor: Actor) {
  const rows = await webhooksRepo.list(services.db, actor);
  return rows.map((r) => toWebhook(services, r));
}

export async function getWebhook(services: Services, actor: Actor, id: string) {
  const row = await webhooksRepo.find(services.db, actor, id);
  if (!row) throw new AppError(M.notFound);
  return toWebhook(services, row);
}

async function listed(services: Services, chip: ChipRow): Promise<ProviderTemplate[]> {
  const adapter = services.channels.adapter(chip);
  if (!chip.official || !adapter.listTemplates) return [];
  try {
    return await adapter.listTemplates(chip);
  } catch (err) {
    if (err instanceof ChannelError) throw fieldFailure(fieldError('template', M.templatesUnavailable));
    throw err;
  }
}

/** get-webhook-templates: the official chip's APPROVED templates with fixed content (spec 3 §5). */
export async function webhookTemplates(
  services: Services,
  actor: Actor,
  chipId: string,
): Promise<WebhookTemplateOption[]> {
  const chip = await chipsRepo.find(services.db, actor, chipId);
  if (!chip) throw new AppError(M.chipNotFound);
  const out: WebhookTemplateOption[] = [];
  for (const t of await listed(services, chip)) {
    const preview = fixedContent(t);
    if (preview === null) continue;
    out.push({
      name: t.name,
      language: t.language,
      status: t.status,
      components: t.components as Record<string, unknown>[],
      preview,
    });
  }
  return out;
}

type Changes = Omit<Payload<'create-or-update-webhook'>, '_id' | 'filed'>;

/** The row's columns for `changes` over `current`: judged by the shared rule, then by what the server knows. */
async function prepare(
  services: Services,
  actor: Actor,
  current: WebhookRow,
  changes: Changes,
): Promise<Partial<WebhookRow>> {
  const { db } = services;
  const next = {
    name: changes.name ?? current.name,
    status: changes.status ?? current.status,
    chipId: changes.chip !== undefined ? changes.chip : current.chipId,
    flowId: changes.flow !== undefined ? changes.flow : current.flowId,
    template:
      changes.template !== undefined
        ? changes.template && { ...changes.template, status: 'APPROVED', components: [] }
        : current.template,
    templatePayloads: changes.template_payloads ?? current.templatePayloads,
    conversationCreationRule: changes.conversation_creation_rule ?? current.conversationCreationRule,
    redirect: changes.redirect !== undefined ? changes.redirect : (current.redirect ?? null),
    chatbotId: changes.chatbot !== undefined ? changes.chatbot : current.chatbotId,
    departmentId: changes.department !== undefined ? changes.department : current.departmentId,
    data: changes.data ?? current.data,
    fields: (changes.fields ?? current.fields).map((f) => ({
      name: f.name.trim(),
      origin: [...new Set(f.origin)],
      value: f.value ?? '',
    })),
  };
  const [problem] = webhookSaveProblems(next);
  if (problem) throw fieldFailure(problem);
  if (next.fields[0]?.name !== PHONE_FIELD) throw fieldFailure(fieldError('fields.0', M.phoneFieldFixed));

  const chip = next.chipId ? await chipsRepo.find(db, actor, next.chipId) : null;
  if (next.chipId && !chip) throw fieldFailure(fieldError('chip', M.chipNotFound));
  // An active webhook must be able to send: a chip and its flow or template.
  if (next.status === 'active' && !chip) throw fieldFailure(fieldError('chip', M.chipRequired));

  if (!chip?.official) {
    next.template = null;
    next.templatePayloads = [];
    if (next.status === 'active' && !next.flowId) throw fieldFailure(fieldError('flow', M.flowRequired));
    if (next.flowId && !(await flowsRepo.find(db, actor, next.flowId)))
      throw fieldFailure(fieldError('flow', M.flowNotFound));
    return { ...next, chatbotId: null, departmentId: null, redirect: null };
  }

  // Official: the template as the provider lists it now, APPROVED with fixed content.
  if (next.template) {
    const wanted = next.template;
    const found = (await listed(services, chip)).find(
      (t) => t.name === wanted.name && (!wanted.language || t.language === wanted.language),
    );
    if (!found || fixedContent(found) === null)
      throw fieldFailure(fieldError('template', M.templateNotUsable));
    next.template = {
      name: found.name,
      language: found.language,
      status: found.status,
      components: found.components as Record<string, unknown>[],
    };
  } else if (next.status === 'active') throw fieldFailure(fieldError('template', M.templateRequired));

  // One entry per quick-reply button (matched by its text), each flow the account's.
  const quickReplies = templateButtons(next.template?.components ?? []).filter(
    (b) => String(b.type ?? '').toUpperCase() === 'QUICK_REPLY',
  );
  const payloads = [];
  for (const [i, b] of quickReplies.entries()) {
    const text = String(b.text ?? '');
    const given = next.templatePayloads.find((p) => p.button === text);
    const flowId = given?.payload ?? null;
    if (flowId && !(await flowsRepo.find(db, actor, flowId)))
      throw fieldFailure(fieldError(`template_payloads.${i}`, M.flowNotFound));
    payloads.push({ type: 'button' as const, button: text, tip: given?.tip ?? '', payload: flowId });
  }
  next.templatePayloads = payloads;

  // Who serves the conversation (rule 'all'): a chatbot for AI (or none chosen), a flow for a flow chatbot.
  const redirect = next.redirect;
  const chatbotId = redirect === 'ai_chatbot' || !redirect ? next.chatbotId : null;
  const flowId = redirect === 'flow_chatbot' || !redirect ? next.flowId : null;
  if (chatbotId && !(await chatbotsRepo.find(db, actor, chatbotId)))
    throw fieldFailure(fieldError('chatbot', M.chatbotNotFound));
  if (flowId && !(await flowsRepo.find(db, actor, flowId)))
    throw fieldFailure(fieldError('flow', M.flowNotFound));
  if (next.departmentId && !(await departmentsRepo.find(db, actor, next.departmentId)))
    throw fieldFailure(fieldError('department', M.departmentNotFound));
  return { ...next, chatbotId, flowId };
}

/**
 * create or update webhook: an unknown `_id` creates an empty webhook once (status test, telefone unmapped) and
 * answers upsertedId, or with fields it is judged like an update; a known one is changed; `filed` removes it.
 * A signed-in user's call: the webhook keeps who created it.
 */
export async function createOrUpdateWebhook(
  services: Services,
  actor: UserActor,
  p: Payload<'create-or-update-webhook'>,
) {
  const { db } = services;
  const { _id, filed, ...changes } = p;
  const found = await webhooksRepo.find(db, actor, _id);
  if (!found) {
    if (filed) throw new AppError(M.notFound);
    await requireApiKey(services, actor);
    const made = await webhooksRepo.create(db, actor, _id);
    if (!made || made.filed) throw new AppError(M.notFound);
    const row = Object.values(changes).some((v) => v !== undefined)
      ? await update(services, actor, made, changes)
      : await webhooksRepo.find(db, actor, _id);
    if (!row) throw new AppError(M.notFound);
    return { ...toWebhook(services, row), upsertedId: _id };
  }
  if (filed) {
    await webhooksRepo.update(db, actor, _id, { filed: true });
    return toWebhook(services, { ...found, w: { ...found.w, filed: true } });
  }
  // Nothing to change: a retried create (the answer it had), not a save to judge.
  if (!Object.values(changes).some((v) => v !== undefined))
    return { ...toWebhook(services, found), upsertedId: _id };
  const row = await update(services, actor, found.w, changes);
  return toWebhook(services, row);
}

/** Spec 3 §6: creating or activating a webhook needs the account's API key (generated at /api). */
async function requireApiKey(services: Services, actor: Actor) {
  if (!(await apiKeysRepo.hasKey(services.db, actor))) throw new AppError(M.apiKeyRequired);
}

async function update(services: Services, actor: Actor, current: WebhookRow, changes: Changes) {
  if (changes.status === 'active' && current.status !== 'active') await requireApiKey(services, actor);
  const set = await prepare(services, actor, current, changes);
  await webhooksRepo.update(services.db, actor, current.id, set);
  const row = await webhooksRepo.find(services.db, actor, current.id);
  if (!row) throw new AppError(M.notFound);
  return row;
}
