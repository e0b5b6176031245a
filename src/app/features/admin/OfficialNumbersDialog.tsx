import {
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '@/app/lib/api';
import { confirm } from '@/app/ui/confirm';
import { Dialog } from '@/app/ui/Dialog';
import { ADMIN_CHIP_STATUSES } from '@/shared/constants';
import type { Chip } from '@/shared/contract';
import type { Customer, ProviderPhoneNumber } from '@/shared/contract/admin';
import { labels, messages } from '@/shared/messages';
import { adminMessages, adminLabels as L } from '@/shared/messages-admin';
import { pinError } from '@/shared/rules/admin-account';
import {
  useAddWaba,
  useCreateOfficialChip,
  useDeleteOfficialChip,
  useOfficialChips,
  useRegisterPhoneNumber,
  useSetChipStatus,
  useWabaPhoneNumbers,
} from './admin-calls';

const QUALITY_COLORS: Record<string, string> = { GREEN: 'green', YELLOW: 'yellow', RED: 'red' };

/** An owner row's official API numbers (spec 3 §2.4 configure numbers, §4 register/unregister). */
export function OfficialNumbersDialog({ customer, onClose }: { customer: Customer | null; onClose(): void }) {
  return (
    <Dialog
      opened={customer !== null}
      onClose={onClose}
      title={customer ? L.numbersTitle(customer.account.name) : ''}
      size="xl"
    >
      {customer && <OfficialNumbers key={customer._id} account={customer.account._id} onDone={onClose} />}
    </Dialog>
  );
}

function OfficialNumbers({ account, onDone }: { account: string; onDone(): void }) {
  const official = useOfficialChips(account);
  const wabas = official.data?.wabas ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const waba = chosen ?? wabas[0]?.id ?? null;
  const chips = official.data?.data ?? [];

  if (official.isPending)
    return (
      <Center py="xl">
        <Loader aria-label={L.loadNumbers} />
      </Center>
    );
  if (official.error) return <Alert color="red">{errorMessage(official.error)}</Alert>;

  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Title order={2} fz="h5">
          {L.wabas}
        </Title>
        {wabas.length === 0 ? (
          <Text fz="sm" c="dimmed">
            {L.noWabas}
          </Text>
        ) : (
          <Select
            label={L.waba}
            data={wabas.map((w) => ({ value: w.id, label: `${w.name} (${w.id})` }))}
            value={waba}
            onChange={setChosen}
            allowDeselect={false}
          />
        )}
        <AddWaba account={account} onAdded={setChosen} />
      </Stack>
      {waba && <ProviderNumbers account={account} waba={waba} chips={chips} />}
      <Stack gap="xs">
        <Title order={2} fz="h5">
          {L.chips}
        </Title>
        {chips.length === 0 ? (
          <Text fz="sm" c="dimmed">
            {L.noChips}
          </Text>
        ) : (
          <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label={L.chips}>
            {chips.map((c) => (
              <OfficialChip key={c._id} chip={c} />
            ))}
          </Stack>
        )}
      </Stack>
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {labels.app.close}
        </Button>
      </Group>
    </Stack>
  );
}

function AddWaba({ account, onAdded }: { account: string; onAdded(id: string): void }) {
  const add = useAddWaba();
  const [id, setId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = () => {
    const value = id.trim();
    if (!/^\d{1,32}$/.test(value)) return setProblem(adminMessages.wabaInvalid);
    setProblem(null);
    add.mutate(
      { account, waba: value },
      {
        onSuccess: () => {
          setId('');
          onAdded(value);
        },
        onError: (err) => setProblem(errorMessage(err)),
      },
    );
  };
  return (
    <Group align="flex-start" gap="xs" wrap="nowrap">
      <TextInput
        label={L.wabaId}
        inputMode="numeric"
        autoComplete="off"
        value={id}
        onChange={(e) => {
          setId(e.currentTarget.value);
          setProblem(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            submit();
          }
        }}
        error={problem}
        style={{ flex: 1 }}
      />
      <Button mt={25} variant="light" onClick={submit} loading={add.isPending}>
        {L.addWaba}
      </Button>
    </Group>
  );
}

function ProviderNumbers({ account, waba, chips }: { account: string; waba: string; chips: Chip[] }) {
  const numbers = useWabaPhoneNumbers(account, waba);
  const create = useCreateOfficialChip();
  const made = new Set(chips.map((c) => c.phone_number_id));
  return (
    <Stack gap="xs">
      <Title order={2} fz="h5">
        {L.providerNumbers}
      </Title>
      {numbers.isPending ? (
        <Center py="sm">
          <Loader size="sm" aria-label={L.loadNumbers} />
        </Center>
      ) : numbers.error ? (
        <Alert color="red" role="alert">
          {errorMessage(numbers.error)}
        </Alert>
      ) : numbers.data.data.length === 0 ? (
        <Text fz="sm" c="dimmed">
          {L.noProviderNumbers}
        </Text>
      ) : (
        <Stack
          component="ul"
          gap="sm"
          m={0}
          p={0}
          style={{ listStyle: 'none' }}
          aria-label={L.providerNumbers}
        >
          {numbers.data.data.map((n: ProviderPhoneNumber) => (
            <Paper component="li" withBorder p="sm" key={n.id} aria-label={n.display_phone_number}>
              <Group justify="space-between" gap="xs">
                <Stack gap={2}>
                  <Text fw={600}>{n.display_phone_number}</Text>
                  <Text fz="sm" c="dimmed">
                    {n.verified_name}
                  </Text>
                </Stack>
                <Group gap="xs">
                  <Badge variant="light" color={QUALITY_COLORS[n.quality_rating ?? ''] ?? 'gray'}>
                    {L.qualityLabel(n.quality_rating)}
                  </Badge>
                  {!made.has(n.id) && (
                    <Button
                      size="xs"
                      loading={create.isPending && create.variables?.phone_number_id === n.id}
                      onClick={() => create.mutate({ account, waba, phone_number_id: n.id })}
                    >
                      {L.createChip}
                    </Button>
                  )}
                </Group>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function OfficialChip({ chip }: { chip: Chip }) {
  const register = useRegisterPhoneNumber();
  const remove = useDeleteOfficialChip();
  const setStatus = useSetChipStatus();
  const [pin, setPin] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const onError = (err: unknown) => setProblem(errorMessage(err));

  function doRegister() {
    const invalid = pinError(pin.trim());
    if (invalid) return setProblem(invalid);
    setProblem(null);
    register.mutate(
      { _id: chip._id, register: true, pin: pin.trim() },
      { onError, onSuccess: () => setPin('') },
    );
  }
  async function doDelete() {
    const ok = await confirm({
      title: L.deleteNumber,
      message: L.deleteNumberQuestion(chip.display_phone_number ?? chip.name),
      danger: true,
    });
    if (ok) remove.mutate({ _id: chip._id });
  }

  return (
    <Paper component="li" withBorder p="sm" aria-label={chip.display_phone_number ?? chip.name}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Stack gap={2}>
            <Text fw={600}>{chip.display_phone_number ?? chip.name}</Text>
            <Text fz="sm" c="dimmed">
              {chip.name}
            </Text>
          </Stack>
          <Group gap="xs">
            <Select
              label={L.chipStatus}
              size="xs"
              w={150}
              data={ADMIN_CHIP_STATUSES.map((s) => ({ value: s, label: messages.chipStatusLabels[s] }))}
              value={(ADMIN_CHIP_STATUSES as readonly string[]).includes(chip.status) ? chip.status : null}
              placeholder={messages.chipStatusLabels[chip.status]}
              allowDeselect={false}
              disabled={setStatus.isPending}
              onChange={(s) => {
                const status = ADMIN_CHIP_STATUSES.find((x) => x === s);
                if (status) setStatus.mutate({ _id: chip._id, status });
              }}
            />
            <Badge variant="light" color={chip.registered ? 'green' : 'gray'}>
              {chip.registered ? L.registered : L.notRegistered}
            </Badge>
          </Group>
        </Group>
        <Group align="flex-end" gap="xs">
          {chip.registered ? (
            <Button
              size="xs"
              variant="light"
              loading={register.isPending}
              onClick={() => {
                setProblem(null);
                register.mutate({ _id: chip._id, register: false }, { onError });
              }}
            >
              {L.unregister}
            </Button>
          ) : (
            <>
              <TextInput
                label={L.pin}
                inputMode="numeric"
                autoComplete="off"
                maxLength={6}
                value={pin}
                onChange={(e) => {
                  setPin(e.currentTarget.value);
                  setProblem(null);
                }}
                error={Boolean(problem)}
                aria-describedby={`pin-hint-${chip._id}`}
                size="xs"
                style={{ flex: 1, minWidth: 140 }}
              />
              <Button size="xs" loading={register.isPending} onClick={doRegister}>
                {L.register}
              </Button>
            </>
          )}
          <Button
            size="xs"
            variant="light"
            color="red"
            loading={remove.isPending}
            onClick={() => void doDelete()}
          >
            {L.deleteNumber}
          </Button>
        </Group>
        {problem ? (
          <Text fz="xs" c="red" role="alert">
            {problem}
          </Text>
        ) : (
          !chip.registered && (
            <Text fz="xs" c="dimmed" id={`pin-hint-${chip._id}`}>
              {L.pinHint}
            </Text>
          )
        )}
      </Stack>
    </Paper>
  );
}
