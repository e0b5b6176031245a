// Webhooks' calls (spec 3 §2.13, §3 Webhook, §5 Webhook save, §7 webhooks): list, get, create or update
// (filed true removes), and the official chip's fixed-content templates. The screen's rule
// (rules/webhook-mapping.ts webhookSaveProblems) is checked again here; what only the server knows is checked
// after it: the chip, flows, chatbot and department are the account's, and the template is APPROVED with fixed
// content as the chip's provider lists it now (its components, not the client's, are stored).
import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { CallName, Calls } from '../../../shared/contract';
import type { Webhook, WebhookTemplateOption } from '../../../shared/contract/webhooks';
import { PHONE_FIELD } from '../../../shared/contract/webhooks';
import { webhookMessages as M } from '../../../shared/messages-webhooks';
import { fieldError } from '../../../shared/rules/field-error';
import { webhookSaveProblems } from '../../../shared/rules/webhook-mapping';
import { ChannelError, type ChipRow, type ProviderTemplate } from '../../channels/adapter';
import type { Db } from '../../db';
import { insertOnce } from '../../db/insert-once';
import { accounts, chips, webhooks } from '../../db/schema';
import type { SignedInContext } from '../../http/context';
import { AppError, fieldFailure } from '../../http/errors';
import type { Services } from '../../services';
import { templateButtons } from '../campaigns/official-template';
import { chatbotsRepo } from '../chatbots/chatbots.repo';
import { fixedContent } from '../conversations/templates';
import { departmentsRepo } from '../departments/departments.repo';
import { flowsRepo } from '../flows/flows.repo';

type Ctx = SignedInContext;
type Payload<N extends CallName> = z.output<Calls[N]['payload']>;
export type WebhookRow = typeof webhooks.$inferSelect;

/** The public address a third party posts to: absolute with PUBLIC_URL, else a path the page completes with
 * its own origin (as the /api page's examples do), never a guessed localhost. */
export const webhookUrl = (services: Services, id: string) =>
  `${services.config.serverAddress}/api/v1/webhooks/${id}`;

export const webhooksRepo = {
  list: (db: Db, accountId: string) =>
    db
      .select({ w: webhooks, chip: chips })
      .from(webhooks)
      .leftJoin(chips, eq(chips.id, webhooks.chipId))
      .where(and(eq(webhooks.accountId, accountId), eq(webhooks.filed, false)))
      .orderBy(desc(webhooks.createdAt), desc(webhooks.id))
      .limit(1000),
  async find(db: Db, accountId: string, id: string) {
    const [row] = await db
      .select({ w: webhooks, chip: chips })
      .from(webhooks)
      .leftJoin(chips, eq(chips.id, webhooks.chipId))
      .where(and(eq(webhooks.id, id), eq(webhooks.accountId, accountId), eq(webhooks.filed, false)))
      .limit(1);
    return row ?? null;
  },
};

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

export async function listWebhooks(ctx: Ctx) {
  const rows = await webhooksRepo.list(ctx.services.db, ctx.actor.accountId);
  return rows.map((r) => toWebhook(ctx.services, r));
}

export async function getWebhook(ctx: Ctx, id: string) {
  const row = await webhooksRepo.find(ctx.services.db, ctx.actor.accountId, id);
  if (!row) throw new AppError(M.notFound);
  return toWebhook(ctx.services, row);
}

async function chipOf(ctx: Ctx, id: string) {
  const [chip] = await ctx.services.db
    .select()
    .from(chips)
    .where(and(eq(chips.id, id), eq(chips.accountId, ctx.actor.accountId), eq(chips.filed, false)))
    .limit(1);
  return chip ?? null;
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
export async function webhookTemplates(ctx: Ctx, chipId: string): Promise<WebhookTemplateOption[]> {
  const chip = await chipOf(ctx, chipId);
  if (!chip) throw new AppError(M.chipNotFound);
  const out: WebhookTemplateOption[] = [];
  for (const t of await listed(ctx.services, chip)) {
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
async function prepare(ctx: Ctx, current: WebhookRow, changes: Changes): Promise<Partial<WebhookRow>> {
  const { db } = ctx.services;
  const accountId = ctx.actor.accountId;
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

  const chip = next.chipId ? await chipOf(ctx, next.chipId) : null;
  if (next.chipId && !chip) throw fieldFailure(fieldError('chip', M.chipNotFound));
  // An active webhook must be able to send: a chip and its flow or template.
  if (next.status === 'active' && !chip) throw fieldFailure(fieldError('chip', M.chipRequired));

  if (!chip?.official) {
    next.template = null;
    next.templatePayloads = [];
    if (next.status === 'active' && !next.flowId) throw fieldFailure(fieldError('flow', M.flowRequired));
    if (next.flowId && !(await flowsRepo.find(db, accountId, next.flowId)))
      throw fieldFailure(fieldError('flow', M.flowNotFound));
    return { ...next, chatbotId: null, departmentId: null, redirect: null };
  }

  // Official: the template as the provider lists it now, APPROVED with fixed content.
  if (next.template) {
    const wanted = next.template;
    const found = (await listed(ctx.services, chip)).find(
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
    if (flowId && !(await flowsRepo.find(db, accountId, flowId)))
      throw fieldFailure(fieldError(`template_payloads.${i}`, M.flowNotFound));
    payloads.push({ type: 'button' as const, button: text, tip: given?.tip ?? '', payload: flowId });
  }
  next.templatePayloads = payloads;

  // Who serves the conversation (rule 'all'): a chatbot for AI (or none chosen), a flow for a flow chatbot.
  const redirect = next.redirect;
  const chatbotId = redirect === 'ai_chatbot' || !redirect ? next.chatbotId : null;
  const flowId = redirect === 'flow_chatbot' || !redirect ? next.flowId : null;
  if (chatbotId && !(await chatbotsRepo.find(db, accountId, chatbotId)))
    throw fieldFailure(fieldError('chatbot', M.chatbotNotFound));
  if (flowId && !(await flowsRepo.find(db, accountId, flowId)))
    throw fieldFailure(fieldError('flow', M.flowNotFound));
  if (next.departmentId && !(await departmentsRepo.find(db, ctx.actor, next.departmentId)))
    throw fieldFailure(fieldError('department', M.departmentNotFound));
  return { ...next, chatbotId, flowId };
}

/**
 * create or update webhook: an unknown `_id` creates an empty webhook once (status test, telefone unmapped) and
 * answers upsertedId, or with fields it is judged like an update; a known one is changed; `filed` removes it.
 */
export async function createOrUpdateWebhook(ctx: Ctx, p: Payload<'create-or-update-webhook'>) {
  const { db } = ctx.services;
  const actor = ctx.actor;
  const { _id, filed, ...changes } = p;
  const found = await webhooksRepo.find(db, actor.accountId, _id);
  if (!found) {
    if (filed || actor.kind !== 'user') throw new AppError(M.notFound);
    await requireApiKey(ctx);
    const made = await insertOnce(
      db,
      webhooks,
      { id: _id, accountId: actor.accountId, userId: actor.userId },
      and(eq(webhooks.id, _id), eq(webhooks.accountId, actor.accountId)),
    );
    if (!made || made.row.filed) throw new AppError(M.notFound);
    const row = Object.values(changes).some((v) => v !== undefined)
      ? await update(ctx, made.row, changes)
      : await webhooksRepo.find(db, actor.accountId, _id);
    if (!row) throw new AppError(M.notFound);
    return { ...toWebhook(ctx.services, row), upsertedId: _id };
  }
  if (filed) {
    await db
      .update(webhooks)
      .set({ filed: true })
      .where(and(eq(webhooks.id, _id), eq(webhooks.accountId, actor.accountId)));
    return toWebhook(ctx.services, { ...found, w: { ...found.w, filed: true } });
  }
  // Nothing to change: a retried create (the answer it had), not a save to judge.
  if (!Object.values(changes).some((v) => v !== undefined))
    return { ...toWebhook(ctx.services, found), upsertedId: _id };
  const row = await update(ctx, found.w, changes);
  return toWebhook(ctx.services, row);
}

/** Spec 3 §6: creating or activating a webhook needs the account's API key (generated at /api). */
async function requireApiKey(ctx: Ctx) {
  const [account] = await ctx.services.db
    .select({ apiKey: accounts.apiKey })
    .from(accounts)
    .where(eq(accounts.id, ctx.actor.accountId));
  if (!account?.apiKey) throw new AppError(M.apiKeyRequired);
}

async function update(ctx: Ctx, current: WebhookRow, changes: Changes) {
  if (changes.status === 'active' && current.status !== 'active') await requireApiKey(ctx);
  const set = await prepare(ctx, current, changes);
  const { db } = ctx.services;
  await db
    .update(webhooks)
    .set(set)
    .where(and(eq(webhooks.id, current.id), eq(webhooks.accountId, ctx.actor.accountId)));
  const row = await webhooksRepo.find(db, ctx.actor.accountId, current.id);
  if (!row) throw new AppError(M.notFound);
  return row;
}
