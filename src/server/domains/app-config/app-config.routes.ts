import type { Handlers } from '../../http/context';

export const appConfigHandlers = {
  'get-app-config': async (_p, ctx) => {
    const { config } = ctx.services;
    return {
      plan_management_url: config.PLAN_MANAGEMENT_URL ?? null,
      help_video_url: config.HELP_VIDEO_URL ?? null,
      support_url: config.SUPPORT_URL ?? null,
      media_max_mb: config.MEDIA_MAX_MB,
    };
  },
} satisfies Handlers;
