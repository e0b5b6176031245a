// The channels of the server: one adapter per provider, and the sink through which every adapter reports
// QR codes, status changes, inbound messages and receipts to the rest of the server.
import type { ChannelProvider, ChipStatus } from '../../shared/constants';
import { messages } from '../../shared/messages';
import { systemActor } from '../access';
import { channelChipsRepo } from '../domains/chips/channel-chips.repo';
import { chipBack } from '../domains/conversations/delivery';
import { applyCustomerChange, applyReceipt, receiveInbound } from '../domains/conversations/pipeline';
import { AppError } from '../http/errors';
import { chipStatusChanged } from '../jobs/campaigns';
import type { Services } from '../services';
import type { ChannelAdapter, ChannelSink, ChipRow } from './adapter';
import { type BaileysChannel, createBaileysChannel, type SocketFactory } from './baileys';
import { type CloudApiChannel, createCloudApiChannel } from './cloud-api';
import type { Channels } from './port';
import { createSimulatorChannel, type SimulatorChannel } from './simulator';

/** The channels as the domains see them (port.ts), and what app.ts does with them: routes, start, stop. */
export interface ChannelSet extends Channels {
  sink: ChannelSink;
  simulator: SimulatorChannel;
  cloudApi: CloudApiChannel;
  baileys: BaileysChannel;
  /** Reconnects what was connected before a restart. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** `services` is read lazily: the channels are part of the services they report to. */
export function createChannels(
  getServices: () => Services,
  opts: { baileysSocketFactory?: SocketFactory; processId?: string } = {},
): ChannelSet {
  const withChip = async (
    chipOrId: string | ChipRow,
    fn: (chip: ChipRow, services: Services) => Promise<void>,
  ) => {
    const services = getServices();
    const chip = typeof chipOrId === 'string' ? await channelChipsRepo.byId(services.db, chipOrId) : chipOrId;
    if (chip && !chip.filed) await fn(chip, services);
  };

  const sink: ChannelSink = {
    qrcode: (chipId, code) =>
      withChip(chipId, async (chip, services) => {
        await channelChipsRepo.setQrcode(services.db, systemActor(chip.accountId, 'channel'), chip.id, code);
        services.realtime.toAccount(chip.accountId, {
          type: 'qrcode',
          chip_number_id: chip.id,
          message: code,
        });
      }),
    status: (chipId, status: ChipStatus, reason?: string) =>
      withChip(chipId, async (chip, services) => {
        await channelChipsRepo.setStatus(
          services.db,
          systemActor(chip.accountId, 'channel'),
          chip.id,
          status,
          reason,
        );
        services.realtime.toAccount(chip.accountId, {
          type: 'status',
          chip_number_id: chip.id,
          message: status,
          ...(reason && { reason }),
        });
        // Its campaigns pause while it is away and go on when it is back; the sends that waited for it go.
        await chipStatusChanged(services, chip.id, status);
        if (status === 'open') await chipBack(services, chip.id);
      }),
    inbound: (chip, message) => withChip(chip, (row, services) => receiveInbound(services, row, message)),
    change: (chipId, id, change) =>
      withChip(chipId, (chip, services) => applyCustomerChange(services, chip, id, change)),
    receipt: (chipId, id, status, reason) =>
      withChip(chipId, (chip, services) => applyReceipt(services, chip, id, status, reason)),
  };

  const simulator = createSimulatorChannel({ sink, services: getServices });
  const cloudApi = createCloudApiChannel({ sink, services: getServices });
  const baileys = createBaileysChannel({
    sink,
    services: getServices,
    ...(opts.baileysSocketFactory && { socketFactory: opts.baileysSocketFactory }),
    ...(opts.processId && { processId: opts.processId }),
  });
  const adapters: Partial<Record<ChannelProvider, ChannelAdapter>> = {
    simulator: simulator.adapter,
    'cloud-api': cloudApi.adapter,
    baileys: baileys.adapter,
  };

  return {
    sink,
    simulator,
    cloudApi,
    baileys,
    adapter(chip) {
      const adapter = adapters[chip.provider];
      if (!adapter) throw new AppError(messages.providerFailed);
      return adapter;
    },
    async start() {
      const services = getServices();
      const all = await channelChipsRepo.allActive(services.db);
      for (const adapter of Object.values(adapters)) {
        await adapter.start?.(all.filter((c) => c.provider === adapter.provider));
      }
    },
    async stop() {
      for (const adapter of Object.values(adapters)) await adapter.stop?.();
    },
  };
}
