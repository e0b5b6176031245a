// Settings the app reads at run time from the server's environment (so one build fits every deployment).
import { z } from 'zod';
import { noPayload } from './common';
import { defineCall } from './define';

export const appConfigCalls = {
  'get-app-config': defineCall({
    access: {},
    payload: noPayload,
    answer: z.object({
      /** External plan management, linked from /minha-conta; null when not configured. */
      plan_management_url: z.string().nullable(),
      /** Help videos; a `{topic}` in it is replaced by the topic id. Null: the help shows the topic text. */
      help_video_url: z.string().nullable(),
      /** The largest file an upload may have (MEDIA_MAX_MB). */
      /** The support's contact (the official-campaigns plan gate's button); null when not configured. */
      support_url: z.string().nullable(),
      media_max_mb: z.number().int().positive(),
    }),
  }),
};
