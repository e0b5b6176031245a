import { SimpleGrid, Switch, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Dialog } from '@/app/ui/Dialog';
import { DialogForm } from '@/app/ui/FormParts';
import { useFormError } from '@/app/ui/use-form-error';
import type { AccountUsage, Customer } from '@/shared/contract/admin';
import { messages } from '@/shared/messages';
import { adminLabels as L } from '@/shared/messages-admin';
import { LIMIT_FIELDS, type LimitField, prepareAccountLimits } from '@/shared/rules/admin-account';
import { useAccountUsage, useUpdateAccount } from './admin-calls';

const LIMIT_LABELS: Record<LimitField, string> = {
  max_channels: L.maxChannels,
  max_official_channels: L.maxOfficialChannels,
  max_users: L.maxUsers,
  max_flows: L.maxFlows,
};

const USAGE_OF: Record<LimitField, keyof AccountUsage> = {
  max_channels: 'channels',
  max_official_channels: 'official_channels',
  max_users: 'users',
  max_flows: 'flows',
};

/** An owner row's account limits (spec 3 §5 Admin account edit). */
export function EditAccountDialog({ customer, onClose }: { customer: Customer | null; onClose(): void }) {
  return (
    <Dialog
      opened={customer !== null}
      onClose={onClose}
      title={customer ? L.editAccountTitle(customer.account.name) : ''}
      size="lg"
    >
      {customer && <EditAccountForm key={customer._id} customer={customer} onDone={onClose} />}
    </Dialog>
  );
}

function EditAccountForm({ customer, onDone }: { customer: Customer; onDone(): void }) {
  const { account } = customer;
  const update = useUpdateAccount();
  const usage = useAccountUsage(account._id).data;
  const [limits, setLimits] = useState<Record<LimitField, string>>({
    max_channels: String(account.max_channels),
    max_official_channels: String(account.max_official_channels),
    max_users: String(account.max_users),
    max_flows: String(account.max_flows),
  });
  const [campaigns, setCampaigns] = useState(account.campaigns_enabled);
  const [custom, setCustom] = useState(account.custom_negotiation);
  const { formRef, errorOf, show, clear, reset, afterSave } = useFormError(LIMIT_FIELDS);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const prepared = prepareAccountLimits({
      ...limits,
      campaigns_enabled: campaigns,
      custom_negotiation: custom,
    });
    if (!prepared.ok) return show(prepared.error);
    reset();
    update.mutate({ _id: account._id, ...prepared.limits }, afterSave(onDone));
  }

  return (
    <DialogForm
      formRef={formRef}
      onSubmit={submit}
      error={errorOf('form')}
      onCancel={onDone}
      loading={update.isPending}
    >
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        {LIMIT_FIELDS.map((f, i) => (
          <TextInput
            key={f}
            label={LIMIT_LABELS[f]}
            description={usage ? L.inUse(usage[USAGE_OF[f]]) : undefined}
            inputMode="numeric"
            autoComplete="off"
            value={limits[f]}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setLimits((l) => ({ ...l, [f]: value }));
              clear(f);
            }}
            error={errorOf(f)}
            data-autofocus={i === 0 || undefined}
          />
        ))}
      </SimpleGrid>
      <Switch
        label={messages.campaignsEnabled}
        checked={campaigns}
        onChange={(e) => setCampaigns(e.currentTarget.checked)}
      />
      <Switch
        label={L.customNegotiation}
        checked={custom}
        onChange={(e) => setCustom(e.currentTarget.checked)}
      />
    </DialogForm>
  );
}
