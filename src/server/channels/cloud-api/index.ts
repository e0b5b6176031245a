// WhatsApp Cloud API (official numbers). SKELETON: the Cloud API helper replaces this file.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../http/context';
import { type ChannelAdapter, ChannelError, type ChannelSink } from '../adapter';

export interface CloudApiChannel {
  adapter: ChannelAdapter;
  /** GET/POST /webhooks/whatsapp: the verification challenge and the signed notifications. */
  registerRoutes(app: FastifyInstance): Promise<void>;
}

export function createCloudApiChannel(_deps: {
  sink: ChannelSink;
  services: () => Services;
}): CloudApiChannel {
  const fail = async (): Promise<never> => {
    throw new ChannelError('not yet');
  };
  return {
    adapter: {
      provider: 'cloud-api',
      connect: fail,
      disconnect: fail,
      reset: fail,
      send: fail,
      checkPhone: fail,
      deleteMessage: fail,
    },
    async registerRoutes() {},
  };
}
