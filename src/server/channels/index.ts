// The channels of the server: one adapter per provider, and the sink through which every adapter reports
// QR codes, status changes, inbound messages and receipts to the rest of the server.
import type { ChannelProvider, ChipStatus } from '../../shared/constants';
import { messages } from '../../shared/messages';
import { systemActor } from '../access';
import { channelChipsRepo } from '../domains/chips/channel-chips.repo';
import { applyReceipt, receiveInbound } from '../domains/conversations/pipeline';
import { AppError } from '../http/errors';
import { chipStatusChanged } from '../jobs/campaigns';
import type { Services } from '../services';
import type { ChannelAdapter, ChannelSink, ChipRow } from './adapter';
import { type CloudApiChannel, createCloudApiChannel } from './cloud-api';
import { createSimulatorChannel, type SimulatorChannel } from './simulator';

export interface Channels {
  sink: ChannelSink;
  simulator: SimulatorChannel;
  cloudApi: CloudApiChannel;
  /** The adapter that talks to this chip. */
  adapter(chip: ChipRow): ChannelAdapter;
  /** Reconnects what was connected before a restart. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** `services` is read lazily: the channels are part of the services they report to. */
export function createChannels(getServices: () => Services): Channels {
  const withChip = async (chipId: string, fn: (chip: ChipRow, services: Services) => Promise<void>) => {
    const services = getServices();
    const chip = await channelChipsRepo.byId(services.db, chipId);
    if (chip) await fn(chip, services);
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
    status: (chipId, status: ChipStatus) =>
      withChip(chipId, async (chip, services) => {
        await channelChipsRepo.setStatus(
          services.db,
          systemActor(chip.accountId, 'channel'),
          chip.id,
          status,
        );
        services.realtime.toAccount(chip.accountId, {
          type: 'status',
          chip_number_id: chip.id,
          message: status,
        });
        // Its campaigns pause while it is away and go on when it is back.
        await chipStatusChanged(services, chip.id, status);
      }),
    inbound: (chipId, message) =>
      withChip(chipId, (chip, services) => receiveInbound(services, chip, message)),
    receipt: (chipId, id, status, reason) =>
      withChip(chipId, (chip, services) => applyReceipt(services, chip, id, status, reason)),
  };

  const simulator = createSimulatorChannel({ sink, services: getServices });
  const cloudApi = createCloudApiChannel({ sink, services: getServices });
  const adapters: Partial<Record<ChannelProvider, ChannelAdapter>> = {
    simulator: simulator.adapter,
    'cloud-api': cloudApi.adapter,
  };

  return {
    sink,
    simulator,
    cloudApi,
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
