// The channels as the rest of the server sees them: the adapter that talks to a chip, and the few calls of a
// provider of its own (the simulator's page, Baileys' pairing code and live socket). The channels (index.ts)
// implement it and app.ts hands it over in Services; this file imports no domain code, so Services does not
// close an import circle through the pipeline every adapter reports to.
import type { SimulatorMessage } from '../../shared/contract/chips';
import type { UploadedFile } from '../http/upload';
import type { ChannelAdapter, ChipRow } from './adapter';
import type { BaileysSocket } from './baileys/socket';

/** What the simulator's page sends: a message of the customer it plays. */
export interface SimulatorSend {
  token: string;
  phone: string;
  name: string;
  id: string;
  type: 'text' | 'image' | 'audio' | 'video' | 'document' | 'location';
  text: string;
  media_url?: string;
  file_name?: string;
  location?: { latitude: number; longitude: number; name?: string };
  /** A tap on a menu's option: the message's text is its title. */
  choice?: { id: string; title: string };
}

/** The simulator page's calls (chips.routes). */
export interface SimulatorPage {
  open(
    token: string,
    pair?: string,
  ): Promise<{ chip_name: string; connected: boolean; numbered_menus: boolean }>;
  setMenus(token: string, numbered: boolean): Promise<void>;
  messages(token: string, phone: string): Promise<SimulatorMessage[]>;
  send(input: SimulatorSend): Promise<SimulatorMessage>;
  upload(token: string, file: UploadedFile): Promise<{ url: string; mime: string; file_name: string }>;
  mark(token: string, phone: string, ids: string[], status: 3 | 4): Promise<void>;
}

export interface Channels {
  /** The adapter that talks to this chip. */
  adapter(chip: ChipRow): ChannelAdapter;
  simulator: SimulatorPage;
  baileys: {
    /** A pairing code to type on the phone (WhatsApp > Aparelhos conectados > Conectar com número). */
    pairingCode(chip: ChipRow, phone: string): Promise<string>;
    /** The live socket of a chip in this process, if it holds it (media retries). */
    socketOf(chipId: string): BaileysSocket | null;
  };
}
