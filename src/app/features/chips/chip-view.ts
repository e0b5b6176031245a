// How the chips screen names and shows a chip (spec 3 §3 Chip, §4 Channel status).
import { CHIP_REDIRECTS, type ChipRedirect, type ChipStatus } from '@/shared/constants';
import type { Chip } from '@/shared/contract';
import { labels, messages } from '@/shared/messages';

export const REDIRECT_LABELS: Record<ChipRedirect, string> = {
  ai_chatbot: labels.chips.aiChatbot,
  flow_chatbot: labels.chips.flowChatbot,
  human: labels.chips.humanService,
};

export const REDIRECT_OPTIONS = CHIP_REDIRECTS.map((value) => ({ value, label: REDIRECT_LABELS[value] }));

export const STATUS_COLORS: Record<ChipStatus, string> = {
  new: 'red',
  close: 'red',
  open: 'green',
  connecting: 'yellow',
  configuring: 'blue',
};

export const statusLabel = (chip: Pick<Chip, 'status'>) => messages.chipStatusLabels[chip.status];

export const typeLabel = (chip: Pick<Chip, 'official'>) => (chip.official ? 'API Oficial' : 'QR code');

/** Spec 3 §4: Conectar is hidden while the chip is open, has a QR code waiting, or was changed. */
export const canConnect = (chip: Pick<Chip, 'status' | 'qrcode' | 'changed'>) =>
  chip.status !== 'open' && !chip.qrcode && !chip.changed;

/** Desconectar: a chip that is connected, or waiting for its QR code to be read. */
export const canDisconnect = (chip: Pick<Chip, 'status'>) =>
  chip.status === 'open' || chip.status === 'connecting';

/**
 * What a QR code encodes, as the camera and the link should read it. The simulator's code is a link to its
 * page: a path ('/simulador/…') when the server knows no public address, completed with this page's origin.
 */
export function qrCodeValue(code: string, origin: string): string {
  if (code.startsWith('/') && !code.startsWith('//')) return new URL(code, origin).href;
  return code;
}

/** The simulator page a QR code leads to, or null when the code is not such a link (a real provider's code). */
export function simulatorPageUrl(code: string, origin: string): string | null {
  let url: URL;
  try {
    url = new URL(qrCodeValue(code, origin));
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.pathname.startsWith('/simulador/') ? url.href : null;
}
