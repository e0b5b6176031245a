// Whom a sent message is attributed to. Its own file: answered.ts judges a send by it, and the sending side
// (conversations.service) imports answered.ts.
import type { MessageSource } from '../../../shared/constants';
import type { AuthUser } from '../../access';

/** Whom a sent message is attributed to (its user_id and the signature's name). */
export type Sender =
  /** A user's message; `campaign`: a campaign's, attributed to its creator but sent by the engine. */
  | (Pick<AuthUser, 'id' | 'name' | 'userSignature'> & { campaign?: true })
  /**
   * An engine answering by itself (a flow, the AI chatbot, the public API, a follow-up): origin 'chatbot', no
   * user, no signature; `source` names the engine for the pane. `followUp`: an automatic follow-up, sent the
   * same way but leaving the follow-up's clock as it is.
   */
  | { chatbot: true; source: MessageSource; followUp?: true };
