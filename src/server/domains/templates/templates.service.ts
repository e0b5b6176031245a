// Message templates of an official number (spec 3 §2.14, §4 Template lifecycle, §5 Template save): listed,
// created and deleted on the chip's WABA through the Graph API (/{waba}/message_templates). Nothing is kept
// here: Meta holds the templates and their review; status changes arrive by the message_template_status_update
// webhook (./template-status.ts). An image header's example goes up with Meta's Resumable Upload API.
import type { z } from 'zod';
import {
  type MessageTemplate,
  TEMPLATE_BUTTON_TYPES,
  TEMPLATE_IMAGE_MAX_BYTES,
  TEMPLATE_IMAGE_TYPES,
  type TemplateButton,
  type TemplateComponent,
  type templatesCalls,
} from '../../../shared/contract/templates';
import { templateMessages as texts } from '../../../shared/messages-campaigns';
import {
  isDefaultTemplate,
  normaliseTemplateText,
  sortTemplateButtons,
  templateIndexes,
  templateProblems,
} from '../../../shared/rules/template';
import type { Actor } from '../../access';
import { ChannelError, type ChipRow } from '../../channels/adapter';
import { createGraphClient, type GraphClient } from '../../channels/cloud-api/graph';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';
import { conversationsRepo } from '../conversations/conversations.repo';
import { mediaRepo } from '../media/media.repo';

type OfficialChip = ChipRow & { waba: string };

/** A template as Graph lists it (the fields we ask for). */
interface GraphTemplate {
  id?: string;
  name: string;
  language: string;
  category?: string;
  status: string;
  rejected_reason?: string;
  components?: Record<string, unknown>[];
}

const FIELDS = 'id,name,status,language,category,components,rejected_reason';
const MAX_PAGES = 20;

/** The caller's official chip with a WABA (one of its account, in a department it sees). */
async function officialChip(services: Services, actor: Actor, chipId: string): Promise<OfficialChip> {
  const chip = await conversationsRepo.visibleChip(services.db, actor, chipId);
  if (!chip.official || chip.provider !== 'cloud-api' || !chip.waba)
    throw new AppError(texts.templateChipNotOfficial, 200, false, 'chip');
  return chip as OfficialChip;
}

/** A Graph failure as its pt-BR reason. */
async function graphCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ChannelError) throw new AppError(err.message);
    throw err;
  }
}

const graphOf = (services: Services): GraphClient => createGraphClient(services.config, services.log);
const wabaPath = (chip: OfficialChip) => `${encodeURIComponent(chip.waba)}/message_templates`;

async function listRaw(services: Services, chip: OfficialChip): Promise<GraphTemplate[]> {
  const graph = graphOf(services);
  const all: GraphTemplate[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = `fields=${FIELDS}&limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`;
    const answer = await graphCall(() =>
      graph.get<{ data?: GraphTemplate[]; paging?: { cursors?: { after?: string }; next?: string } }>(
        `${wabaPath(chip)}?${query}`,
      ),
    );
    all.push(...(answer.data ?? []));
    after = answer.paging?.next ? answer.paging.cursors?.after : undefined;
    if (!after) break;
  }
  return all;
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** Meta's buttons of the kinds the screens know (quick reply, URL, phone); others (copy code, OTP…) left out. */
function buttonsOf(raw: unknown): TemplateButton[] {
  if (!Array.isArray(raw)) return [];
  const out: TemplateButton[] = [];
  for (const b of raw as Record<string, unknown>[]) {
    const type = TEMPLATE_BUTTON_TYPES.find((t) => t === b?.type);
    if (!type) continue;
    const url = str(b.url);
    const phone = str(b.phone_number);
    out.push({
      type,
      text: (str(b.text) ?? '').slice(0, 200),
      ...(url !== undefined && { url: url.slice(0, 2000) }),
      ...(phone !== undefined && { phone_number: phone.slice(0, 2000) }),
    });
  }
  return out;
}

/** Graph's template as the screens see it. */
export function toTemplate(t: GraphTemplate): MessageTemplate {
  const components: TemplateComponent[] = (t.components ?? []).map((c) => {
    const type = String(c.type ?? '').toUpperCase();
    const format = str(c.format);
    const text = str(c.text);
    return {
      type,
      ...(format !== undefined && { format }),
      ...(text !== undefined && { text }),
      ...(c.example !== undefined && { example: c.example }),
      ...(type === 'BUTTONS' && { buttons: buttonsOf(c.buttons) }),
    };
  });
  const reason = t.rejected_reason && t.rejected_reason !== 'NONE' ? t.rejected_reason : null;
  return {
    id: t.id ?? '',
    name: t.name,
    language: t.language,
    category: t.category ?? '',
    status: t.status,
    reason,
    components,
    body: components.find((c) => c.type === 'BODY')?.text ?? '',
    buttons: components.find((c) => c.type === 'BUTTONS')?.buttons ?? [],
    default: isDefaultTemplate(t.name),
  };
}

export async function listTemplates(
  services: Services,
  actor: Actor,
  chipId: string,
): Promise<MessageTemplate[]> {
  const chip = await officialChip(services, actor, chipId);
  return (await listRaw(services, chip)).map(toTemplate);
}

/** The image header's example: a jpeg or png of the account's media library, uploaded to Meta for its handle. */
async function headerHandle(services: Services, actor: Actor, url: string, name: string): Promise<string> {
  const { config, db, media } = services;
  const appId = config.WHATSAPP_APP_ID;
  if (!appId) throw new AppError(texts.templateHeaderImageUnavailable, 200, false, 'header');
  const row = await mediaRepo.byUrl(db, actor, url);
  const bytes = row ? await media.read(row.url) : null;
  if (!bytes) throw new AppError(texts.templateHeaderImageRequired, 200, false, 'header');
  const kind = await media.sniff(bytes, TEMPLATE_IMAGE_TYPES);
  if (!kind) throw new AppError(texts.templateHeaderImageType, 200, false, 'header');
  if (bytes.length > TEMPLATE_IMAGE_MAX_BYTES)
    throw new AppError(texts.templateHeaderImageTooLarge, 200, false, 'header');
  return graphCall(() =>
    graphOf(services).uploadHandle(appId, { bytes, mime: kind.mime, fileName: `${name}.${kind.ext}` }),
  );
}

type CreatePayload = z.output<(typeof templatesCalls)['create-message-template']['payload']>;
type DeletePayload = z.output<(typeof templatesCalls)['delete-message-template']['payload']>;

/** The template in Graph's create shape (components with their examples). */
function componentsOf(p: CreatePayload, handle: string | null): Record<string, unknown>[] {
  const components: Record<string, unknown>[] = [];
  const examples = (list: readonly string[], text: string) =>
    templateIndexes(text).map((n) => (list[n - 1] ?? '').trim());
  if (p.header_format === 'TEXT') {
    const text = normaliseTemplateText(p.header_text.trim());
    const example = examples(p.header_examples, text);
    components.push({
      type: 'HEADER',
      format: 'TEXT',
      text,
      ...(example.length && { example: { header_text: example } }),
    });
  } else if (p.header_format === 'IMAGE' && handle) {
    components.push({ type: 'HEADER', format: 'IMAGE', example: { header_handle: [handle] } });
  }
  const body = normaliseTemplateText(p.body.trim());
  const bodyExample = examples(p.body_examples, body);
  components.push({
    type: 'BODY',
    text: body,
    ...(bodyExample.length && { example: { body_text: [bodyExample] } }),
  });
  if (p.footer.trim()) components.push({ type: 'FOOTER', text: p.footer.trim() });
  if (p.buttons.length) {
    components.push({
      type: 'BUTTONS',
      buttons: sortTemplateButtons(p.buttons).map((b) =>
        b.type === 'URL'
          ? { type: b.type, text: b.text.trim(), url: (b.url ?? '').trim() }
          : b.type === 'PHONE_NUMBER'
            ? { type: b.type, text: b.text.trim(), phone_number: (b.phone_number ?? '').trim() }
            : { type: b.type, text: b.text.trim() },
      ),
    });
  }
  return components;
}

/** 'Template salvo com sucesso': sent to Meta for review; it comes back PENDING. */
export async function createTemplate(
  services: Services,
  actor: Actor,
  p: CreatePayload,
): Promise<MessageTemplate> {
  const chip = await officialChip(services, actor, p.chip);
  const [problem] = templateProblems(p);
  if (problem) throw new AppError(problem.message, 200, false, problem.field);
  const name = p.name.trim();
  const taken = (await listRaw(services, chip)).some((t) => t.name === name && t.language === p.language);
  if (taken) throw new AppError(texts.templateNameTaken, 200, false, 'name');
  const handle =
    p.header_format === 'IMAGE' ? await headerHandle(services, actor, p.header_image ?? '', name) : null;
  const components = componentsOf(p, handle);
  const created = await graphCall(() =>
    graphOf(services).post<{ id?: string; status?: string; category?: string }>(wabaPath(chip), {
      name,
      language: p.language,
      category: p.category,
      components,
    }),
  );
  return toTemplate({
    id: created.id ?? '',
    name,
    language: p.language,
    category: created.category ?? p.category,
    status: created.status ?? 'PENDING',
    components,
  });
}

/** 'Solicitação concluída com sucesso. Aguardar resposta da Meta.': Meta deletes it (every language). */
export async function deleteTemplate(
  services: Services,
  actor: Actor,
  p: DeletePayload,
): Promise<{ ok: boolean }> {
  const chip = await officialChip(services, actor, p.chip);
  if (isDefaultTemplate(p.name)) throw new AppError(texts.templateDefaultNotDeletable);
  const known = (await listRaw(services, chip)).some((t) => t.name === p.name);
  if (!known) throw new AppError(texts.templateNotFound);
  await graphCall(() =>
    graphOf(services).delete<{ success?: boolean }>(`${wabaPath(chip)}?name=${encodeURIComponent(p.name)}`),
  );
  return { ok: true };
}
