import type { Handlers } from '../../http/context';
import {
  createCampaign,
  exportCampaignReport,
  getCampaignRealtime,
  getCampaignReport,
  listCampaigns,
  updateCampaign,
} from './campaigns.service';
import { createOrUpdateOfficialCampaign, listOfficialCampaigns } from './official.service';

export const campaignsHandlers = {
  'get-campaigns-by-user': (p, ctx) => (p.official ? listOfficialCampaigns(ctx) : listCampaigns(ctx, false)),
  'create-campaign': (p, ctx) => createCampaign(ctx, p),
  'update-campaign': (p, ctx) => updateCampaign(ctx, p),
  'create-or-update-official-campaign': (p, ctx) => createOrUpdateOfficialCampaign(ctx, p),
  'get-campaign-realtime': (p, ctx) => getCampaignRealtime(ctx, p._id),
  'get-campaign-report': (p, ctx) => getCampaignReport(ctx, p._id),
  'export-campaign-report': (p, ctx) => exportCampaignReport(ctx, p._id),
} satisfies Handlers;
