// The /api page's example of each endpoint, with the account's real key, chip and flow filled in (placeholders
// when the account has none yet). tests/unit/app/api-examples.test.ts checks that each one passes its
// endpoint's own schemas.
import { type PublicEndpointName, publicEndpoints } from '@/shared/contract/public-api';
import { messages } from '@/shared/messages';
import { apiExamples as X } from '@/shared/messages-api';
import type { ApiRequest } from '@/shared/rules/public-api-request';

export interface ExampleFill {
  apiKey: string | null;
  /** The first chip (a connected one first), and the first official one for send-template. */
  chip: string | null;
  officialChip: string | null;
  flow: string | null;
  /** The phone the examples send to (the sample one by default). */
  phone?: string;
}

export function exampleRequests(f: ExampleFill): Record<PublicEndpointName, ApiRequest> {
  const api_key = f.apiKey ?? X.keyPlaceholder;
  const chip = f.chip ?? X.chipPlaceholder;
  const phone = f.phone?.trim() || X.phone;
  const e = publicEndpoints;
  return {
    sendText: {
      path: e.sendText.path,
      query: { chip, api_key },
      body: { phone, message: X.message },
    },
    thirdParty: {
      path: e.thirdParty.path,
      query: { chip, api_key, message: X.thirdPartyMessage, phone_field: 'cliente.telefone' },
      body: { cliente: { nome: messages.exampleCustomerName, telefone: phone }, pedido: X.order },
    },
    sendFlow: {
      path: e.sendFlow.path,
      query: { chip, api_key },
      body: { phone, flow: f.flow ?? X.flowPlaceholder, metadata: { pedido: X.order } },
    },
    tags: {
      path: e.tags.path,
      query: { api_key },
      body: { phone, tags: [X.tag], metadata: { origem: X.source } },
    },
    tagsRemove: {
      path: e.tagsRemove.path,
      query: { api_key },
      body: { phone, tags: [X.tag] },
    },
    sendTemplate: {
      path: e.sendTemplate.path,
      query: { chip: f.officialChip ?? chip, api_key, template: X.template },
      body: { to: phone, '1': messages.exampleCustomerName },
    },
  };
}
