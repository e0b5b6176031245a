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
  'get-campaigns-by-user': (p, ctx) =>
    p.official
      ? listOfficialCampaigns(ctx.services, ctx.actor)
      : listCampaigns(ctx.services, ctx.actor, false),
  'create-campaign': (p, ctx) => createCampaign(ctx.services, ctx.actor, p),
  'update-campaign': (p, ctx) => updateCampaign(ctx.services, ctx.actor, p),
  'create-or-update-official-campaign': (p, ctx) =>
    createOrUpdateOfficialCampaign(ctx.services, ctx.actor, p),
  'get-campaign-realtime': (p, ctx) => getCampaignRealtime(ctx.services, ctx.actor, p._id),
  'get-campaign-report': (p, ctx) => getCampaignReport(ctx.services, ctx.actor, p._id),
  'export-campaign-report': (p, ctx) => exportCampaignReport(ctx.services, ctx.actor, p._id),
} satisfies Handlers;
