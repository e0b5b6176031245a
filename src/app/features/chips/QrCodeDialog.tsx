import { Anchor, Center, Paper, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { QRCodeCanvas } from 'qrcode.react';
import { useRef } from 'react';
import { Dialog } from '@/app/ui/Dialog';
import type { Chip } from '@/shared/contract';
import { labels, messages } from '@/shared/messages';
import { qrCodeValue, simulatorPageUrl } from './chip-view';

/**
 * The QR code connection dialog (spec 3 §2.6, §4): open while `chip` has a QR code waiting to be read. The
 * code comes from the chips cache, so a status event (code cleared) closes it.
 */
export function QrCodeDialog({ chip, onClose }: { chip: Chip | null; onClose(): void }) {
  // The last chip shown stays in the dialog while it closes.
  const last = useRef<Chip | null>(null);
  if (chip?.qrcode) last.current = chip;
  const shown = last.current;
  const opened = Boolean(chip?.qrcode);

  return (
    <Dialog opened={opened} onClose={onClose} title={labels.chips.conectarNumero} size="md">
      {shown?.qrcode && <QrCodeContent chip={shown} code={shown.qrcode} />}
    </Dialog>
  );
}

function QrCodeContent({ chip, code }: { chip: Chip; code: string }) {
  const origin = window.location.origin;
  const value = qrCodeValue(code, origin);
  const simulator = chip.provider === 'simulator' ? simulatorPageUrl(code, origin) : null;
  return (
    <Stack gap="md">
      <Text fw={600}>{chip.name}</Text>
      <Text fz="sm">{simulator ? messages.simulatorQrInstructions : messages.whatsappQrInstructions}</Text>
      <Center>
        {/* A white frame: cameras read a QR code best on light ground, whatever the theme. */}
        <Paper withBorder p="sm" bg="white" radius="md">
          <QRCodeCanvas
            value={value}
            size={232}
            level="M"
            marginSize={1}
            role="img"
            aria-label={labels.chips.qrCodeDeConexao}
            style={{ display: 'block', maxWidth: '100%', height: 'auto' }}
          />
        </Paper>
      </Center>
      {simulator && (
        <Stack gap={4} align="center" ta="center">
          <Text fz="sm" c="dimmed">
            {messages.simulatorQrDesktopHint}
          </Text>
          <Anchor href={simulator} target="_blank" rel="noopener noreferrer" fw={600}>
            <IconExternalLink size={16} aria-hidden style={{ verticalAlign: 'text-bottom' }} />{' '}
            {labels.chips.abrirOSimulador}
          </Anchor>
        </Stack>
      )}
    </Stack>
  );
}
