import type { Handlers } from '../../http/context';

// TEMPORARY while issue 18 is built: replaced by the real handlers.
const unbuilt = async (): Promise<never> => {
  throw new Error('not built yet');
};

export const campaignsHandlers = {
  'get-campaigns-by-user': unbuilt,
  'create-campaign': unbuilt,
  'update-campaign': unbuilt,
  'get-campaign-realtime': unbuilt,
  'get-campaign-report': unbuilt,
  'export-campaign-report': unbuilt,
} satisfies Handlers;
