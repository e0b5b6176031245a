// The media library (spec 2 §2.5, §7 upload-file / get-medias-by-user / delete-media): named files of the
// account, kept once and sent into any conversation by their URL.
import { z } from 'zod';
import { withoutBidiControls } from '../format';
import { messages } from '../messages';
import { id } from './common';
import { mediaType } from './conversations';
import { defineCall } from './define';

export const libraryMedia = z.object({
  _id: id,
  type: mediaType,
  name: z.string(),
  url: z.string(),
  mime: z.string(),
  size: z.number().int().nonnegative(),
  /** A recorded voice message (push to talk). */
  ptt: z.boolean(),
  created: z.string(),
});
export type LibraryMedia = z.infer<typeof libraryMedia>;

export const mediaCalls = {
  /** The account's library, newest first; one type when `type` is given. */
  'get-medias-by-user': defineCall({
    access: {},
    payload: z.object({ type: mediaType.optional() }),
    answer: z.array(libraryMedia),
  }),
  /** Adds a named file to the library, checked by its content (spec 2 §5 Media) and size (MEDIA_MAX_MB). */
  'upload-media': defineCall({
    access: {},
    upload: { maxBytes: 'media' },
    payload: z.object({
      type: mediaType,
      name: z
        .string(messages.mediaNameRequired)
        .overwrite(withoutBidiControls)
        .trim()
        .min(1, messages.mediaNameRequired)
        .max(120),
      /** 'true' for a recorded voice message (multipart fields are text). */
      ptt: z
        .enum(['true', 'false'])
        .default('false')
        .transform((v) => v === 'true'),
    }),
    answer: libraryMedia,
  }),
  /** Removes an item from the library: 'Arquivo apagado com sucesso!'. */
  'delete-media': defineCall({
    access: {},
    payload: z.object({ _id: id }),
    answer: z.object({ _id: id }),
  }),
};
