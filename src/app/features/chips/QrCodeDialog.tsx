import { Anchor, Button, Center, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { QRCodeCanvas } from 'qrcode.react';
import { useRef, useState } from 'react';
import { errorMessage } from '@/app/lib/api';
import { useCallMutation } from '@/app/lib/mutation';
import { Dialog } from '@/app/ui/Dialog';
import type { Chip } from '@/shared/contract';
import { chipLabels, chipMessages } from '@/shared/messages-chips';
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
    <Dialog opened={opened} onClose={onClose} title={chipLabels.connectNumber} size="md">
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
      <Text fz="sm">
        {simulator ? chipMessages.simulatorQrInstructions : chipMessages.whatsappQrInstructions}
      </Text>
      <Center>
        {/* A white frame: cameras read a QR code best on light ground, whatever the theme. */}
        <Paper withBorder p="sm" bg="white" radius="md">
          <QRCodeCanvas
            value={value}
            size={232}
            level="M"
            marginSize={1}
            role="img"
            aria-label={chipLabels.connectionQrCode}
            style={{ display: 'block', maxWidth: '100%', height: 'auto' }}
          />
        </Paper>
      </Center>
      {chip.provider === 'baileys' && <PairingCode chip={chip} />}
      {simulator && (
        <Stack gap={4} align="center" ta="center">
          <Text fz="sm" c="dimmed">
            {chipMessages.simulatorQrDesktopHint}
          </Text>
          <Anchor href={simulator} target="_blank" rel="noopener noreferrer" fw={600}>
            <IconExternalLink size={16} aria-hidden style={{ verticalAlign: 'text-bottom' }} />{' '}
            {chipLabels.openSimulator}
          </Anchor>
        </Stack>
      )}
    </Stack>
  );
}

/**
 * WhatsApp's alternative to the QR code: the chip's own number asks for an 8-character code that the owner
 * types on the phone (Conectar com número de telefone). The chip then turns Conectado over the socket.
 */
function PairingCode({ chip }: { chip: Chip }) {
  const [phone, setPhone] = useState('');
  const pairing = useCallMutation('request-pairing-code');
  const code = pairing.data?.code;
  return (
    <Stack gap="xs">
      <Text fw={600} fz="sm">
        {chipLabels.connectWithNumber}
      </Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          pairing.mutate({ _id: chip._id, phone });
        }}
      >
        <Stack gap="xs">
          <TextInput
            label={chipLabels.chipNumber}
            inputMode="tel"
            autoComplete="tel"
            value={phone}
            onChange={(e) => setPhone(e.currentTarget.value)}
            error={pairing.error ? errorMessage(pairing.error) : undefined}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={pairing.isPending}>
              {chipLabels.generateCode}
            </Button>
          </Group>
        </Stack>
      </form>
      {code && (
        // On a phone the code arrives below the fold: it is scrolled into view.
        <Stack gap={4} align="center" ta="center" ref={(el) => el?.scrollIntoView({ block: 'nearest' })}>
          <Text fz="sm">{chipMessages.pairingInstructions}</Text>
          <Text
            aria-label={chipLabels.pairingCode}
            ff="monospace"
            fz={28}
            fw={700}
            style={{ letterSpacing: '0.15em' }}
          >
            {code.length === 8 ? `${code.slice(0, 4)}-${code.slice(4)}` : code}
          </Text>
        </Stack>
      )}
    </Stack>
  );
}
