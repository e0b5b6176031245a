import { ActionIcon, Badge, Button, Divider, Text, Tooltip } from '@mantine/core';
import {
  type Icon,
  IconPlugConnected,
  IconPlugConnectedX,
  IconPlus,
  IconQrcode,
  IconRefresh,
} from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '@/app/lib/api';
import { useChips, useDepartments } from '@/app/lib/lists';
import { notifyError } from '@/app/lib/notify';
import { confirm } from '@/app/ui/confirm';
import { SaibaMais } from '@/app/ui/HelpDialog';
import { byText, ListTable, RowActions } from '@/app/ui/ListTable';
import { PageHeader } from '@/app/ui/PageHeader';
import { SupportDialog } from '@/app/ui/SupportDialog';
import { useEditDialog } from '@/app/ui/use-edit-dialog';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import type { Chip } from '@/shared/contract';
import { labels, messages } from '@/shared/messages';
import { chipLabels, chipMessages } from '@/shared/messages-chips';
import { ChipDialog } from './ChipDialog';
import {
  canConnect,
  canDisconnect,
  REDIRECT_LABELS,
  STATUS_COLORS,
  statusLabel,
  typeLabel,
} from './chip-view';
import { useConnectChip } from './connect-chip';
import { useDeleteChip } from './create-or-update-chip';
import { QrCodeDialog } from './QrCodeDialog';
import { useResetChipConnection } from './reset-chip-connection';

/** Spec 3 §4: after an official number connects or disconnects, the page reloads after 1.5 s. */
const OFFICIAL_RELOAD_MS = 1500;

const byName = (a: Chip, b: Chip) => byText(a.name, b.name);

const dash = (
  <Text span fz="sm" c="dimmed">
    —
  </Text>
);

/**
 * The chip whose QR dialog opens by itself: one that had no QR code and now has one (the connect answer or
 * the socket's qrcode event put it in the cache). Codes already waiting when the screen opens do not pop
 * up; their row offers 'Mostrar QR code'.
 */
function useNewQrCode(chips: readonly Chip[] | undefined, open: (id: string) => void) {
  const waiting = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!chips) return;
    const before = waiting.current;
    waiting.current = new Set(chips.filter((c) => c.qrcode).map((c) => c._id));
    const fresh = before && chips.find((c) => c.qrcode && !before.has(c._id));
    if (fresh) open(fresh._id);
  }, [chips, open]);
}

/** /chips 'Meus chips' (spec 3 §2.6): the account's numbers, their live status, connection and settings. */
export function ChipsPage() {
  const chips = useChips();
  const departments = useDepartments();
  const dialog = useEditDialog<Chip>();
  const remove = useDeleteChip();
  const connection = useConnectChip();
  const resetConnection = useResetChipConnection();
  const [qrChipId, setQrChipId] = useState<string | null>(null);
  const [supportOpened, setSupportOpened] = useState(false);
  useNewQrCode(chips.data, setQrChipId);

  const departmentName = new Map((departments.data ?? []).map((d) => [d._id, d.name]));
  const qrChip = chips.data?.find((c) => c._id === qrChipId && c.qrcode) ?? null;
  const busy = (chip: Chip) => connection.isPending && connection.variables?._id === chip._id;

  function reloadIfOfficial(chip: Chip) {
    if (chip.official) window.setTimeout(() => window.location.reload(), OFFICIAL_RELOAD_MS);
  }

  function connect(chip: Chip) {
    // An official number is set up by support first (spec 3 §4).
    if (chip.official && !chip.registered) return setSupportOpened(true);
    connection.mutate(
      { _id: chip._id, connect: true },
      {
        onSuccess: () => reloadIfOfficial(chip),
        onError: (err) =>
          errorMessage(err) === messages.chipNotRegistered ? setSupportOpened(true) : notifyError(err),
      },
    );
  }

  async function disconnect(chip: Chip) {
    if (
      !(await confirm({
        title: chipLabels.disconnect,
        message: chipMessages.chipDisconnectConfirm(chip.name),
      }))
    )
      return;
    connection.mutate(
      { _id: chip._id, connect: false },
      { onSuccess: () => reloadIfOfficial(chip), onError: notifyError },
    );
  }

  async function reset(chip: Chip) {
    const message = chipMessages.chipResetConfirm(chip.name);
    if (await confirm({ title: chipLabels.resetConnection, message, danger: true }))
      resetConnection.mutate(chip);
  }

  return (
    <>
      <PageHeader title={labels.common.myChips}>
        <SaibaMais topic="chips" />
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={dialog.openNew}>
          {chipLabels.newChip}
        </Button>
      </PageHeader>
      <ListTable
        label={labels.common.chips}
        query={chips}
        rowKey={(c) => c._id}
        sort={byName}
        empty={messages.noChips}
        columns={[
          { label: labels.common.name, primary: true, render: (c) => c.name },
          { label: messages.number, render: (c) => c.display_phone_number || dash },
          {
            label: labels.common.status,
            render: (c) => (
              <>
                {/* The whole label, never cut: the table gives the column the badge's width. */}
                <Badge color={STATUS_COLORS[c.status]} variant="light" miw="max-content">
                  {statusLabel(c)}
                </Badge>
                {/* Why a QR number closed on its own (logged out on the phone…), until it opens again. */}
                {c.status === 'close' && c.status_reason && (
                  <Text fz="xs" c="red.7" mt={4} maw={260}>
                    {c.status_reason}
                  </Text>
                )}
              </>
            ),
          },
          {
            label: messages.filterType,
            render: (c) => (
              <Text span fz="sm" style={{ whiteSpace: 'nowrap' }}>
                {typeLabel(c)}
              </Text>
            ),
          },
          { label: chipLabels.firstService, render: (c) => REDIRECT_LABELS[c.redirect] },
          {
            label: labels.common.department,
            render: (c) => (c.department && departmentName.get(c.department)) || dash,
          },
        ]}
        actions={(c) => (
          <>
            {/* First and set apart: a reset beside Editar invited mis-clicks (issue 33 §29). */}
            {!c.official && (
              <>
                <ChipAction
                  label={chipLabels.resetConnection}
                  icon={IconRefresh}
                  color="gray"
                  onClick={() => void reset(c)}
                />
                <Divider orientation="vertical" mx={6} />
              </>
            )}
            {canConnect(c) && (
              <ChipAction
                label={chipLabels.connect}
                icon={IconPlugConnected}
                color="green"
                loading={busy(c)}
                onClick={() => connect(c)}
              />
            )}
            {c.qrcode && (
              <ChipAction
                label={chipLabels.showQrCode}
                icon={IconQrcode}
                onClick={() => setQrChipId(c._id)}
              />
            )}
            {canDisconnect(c) && (
              <ChipAction
                label={chipLabels.disconnect}
                icon={IconPlugConnectedX}
                color="orange"
                loading={busy(c)}
                onClick={() => void disconnect(c)}
              />
            )}
            <RowActions
              onEdit={() => dialog.openEdit(c)}
              onDelete={() => remove.mutate(c)}
              confirmDelete={{
                title: chipLabels.deleteChip,
                message: chipMessages.chipDeleteConfirm(c.name),
              }}
            />
          </>
        )}
      />
      <ChipDialog dialog={dialog} />
      <QrCodeDialog chip={qrChip} onClose={() => setQrChipId(null)} />
      <SupportDialog opened={supportOpened} onClose={() => setSupportOpened(false)} />
    </>
  );
}

interface ChipActionProps {
  label: string;
  icon: Icon;
  color?: string;
  loading?: boolean;
  onClick(): void;
}

/** A row action like Editar and Apagar: an icon with a tooltip on desktop, a labelled button on phone cards. */
function ChipAction({ label, icon: ActionIconShape, color, loading, onClick }: ChipActionProps) {
  const mobile = useIsMobile();
  if (mobile)
    return (
      <Button
        size="xs"
        variant="light"
        color={color}
        leftSection={<ActionIconShape size={14} aria-hidden />}
        loading={loading}
        onClick={onClick}
      >
        {label}
      </Button>
    );
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon variant="subtle" color={color} aria-label={label} loading={loading} onClick={onClick}>
        <ActionIconShape size={18} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}
