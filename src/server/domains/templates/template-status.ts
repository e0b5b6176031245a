// The message_template_status_update webhook (spec 3 §4 Template lifecycle): Meta approved, rejected, paused
// or disabled a template of a WABA. Nothing is stored (the list is read from Meta); every account with an
// official chip on that WABA gets a 'template_status' event, so an open /templates table changes at once.
import type { TemplateStatusEvent } from '../../../shared/contract/templates';
import type { Services } from '../../services';
import { templatesRepo } from './templates.repo';

/** Meta's event names that are not the status they leave the template in. */
const STATUS_OF_EVENT: Record<string, string> = { REINSTATED: 'APPROVED', UNPAUSED: 'APPROVED' };

export interface TemplateStatusUpdate {
  event?: string | undefined;
  message_template_name?: string | undefined;
  message_template_language?: string | undefined;
  reason?: string | null | undefined;
}

export async function templateStatusChanged(
  services: Services,
  waba: string | undefined,
  value: TemplateStatusUpdate,
): Promise<void> {
  const name = value.message_template_name;
  const event = value.event?.toUpperCase();
  if (!waba || !name || !event) {
    services.log.warn({ waba, name, event }, 'whatsapp webhook: template status update without its template');
    return;
  }
  const accountIds = await templatesRepo.accountsOnWaba(services.db, waba);
  const message: TemplateStatusEvent = {
    waba,
    name,
    language: value.message_template_language ?? '',
    status: STATUS_OF_EVENT[event] ?? event,
    reason: value.reason && value.reason !== 'NONE' ? value.reason : null,
  };
  for (const accountId of accountIds)
    services.realtime.toAccount(accountId, { type: 'template_status', message });
}
