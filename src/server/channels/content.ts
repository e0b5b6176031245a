// What the business sends through a channel, in our terms. Its own file because the schema stores it (a
// pending send's content) while the adapter's interface reads the chips' row type from the schema.
import type { InteractiveMenu } from '../../shared/contract/common';

/** What the business sends. Media is one of our /media URLs: read from the media store, or fetched by the provider. */
export type OutboundContent =
  | { type: 'text'; text: string; replyTo?: string | null }
  | {
      type: 'image' | 'audio' | 'video' | 'document';
      /** Our /media URL of the file (services.media reads it, wherever the store keeps it). */
      url: string;
      mime: string;
      fileName: string;
      caption?: string;
      replyTo?: string | null;
      /** Audio only: a voice note (recorded), which the customer's app shows as such. */
      voice?: boolean;
    }
  | {
      /**
       * A flow's menu: interactive buttons or a list where the chip has them (official numbers, the
       * simulator), otherwise `text` (the same menu, numbered) as plain text.
       */
      type: 'interactive';
      body: string;
      menu: InteractiveMenu;
      text: string;
    }
  | {
      type: 'template';
      name: string;
      language: string;
      /** The provider's template components with their parameters. */
      components: unknown[];
      /** The text shown in our conversation. */
      preview: string;
    };
