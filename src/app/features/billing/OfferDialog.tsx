import { NumberInput, SimpleGrid, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { EditDialog } from '@/app/ui/Dialog';
import { DialogForm } from '@/app/ui/FormParts';
import type { EditDialogState } from '@/app/ui/use-edit-dialog';
import { useFormError } from '@/app/ui/use-form-error';
import type { GuruOffer } from '@/shared/contract/billing';
import { labels, messages } from '@/shared/messages';
import { offerLabels as L } from '@/shared/messages-billing';
import {
  MAX_OFFER_LIMIT,
  newOffer,
  OFFER_LIMITS,
  type OfferInput,
  type OfferLimit,
  prepareOffer,
} from '@/shared/rules/offer';
import { useSaveOffer } from './offers';

const FIELDS = ['name', 'offer_id', ...OFFER_LIMITS] as const;

const LIMIT_LABELS: Record<OfferLimit, string> = {
  max_channels: L.maxChannels,
  max_official_channels: L.maxOfficialChannels,
  max_users: L.maxUsers,
  max_flows: labels.flows.flows,
  max_summaries: L.maxSummaries,
  max_follow_ups: L.maxFollowUps,
};

/** Nova oferta / Editar oferta (spec 3 §2.5, §3 Guru offer, §5 Offer). */
export function OfferDialog({ dialog }: { dialog: EditDialogState<GuruOffer> }) {
  return (
    <EditDialog dialog={dialog} title={dialog.item ? L.editOffer : L.newOffer} size="lg">
      <OfferForm offer={dialog.item} onDone={dialog.close} />
    </EditDialog>
  );
}

function OfferForm({ offer, onDone }: { offer: GuruOffer | null; onDone(): void }) {
  const save = useSaveOffer();
  const [values, setValues] = useState<OfferInput>(offer ?? newOffer());
  const { formRef, errorOf, show, clear, reset, afterSave } = useFormError(FIELDS);
  const set = <K extends keyof OfferInput>(field: K, value: OfferInput[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    if ((FIELDS as readonly string[]).includes(field)) clear(field as (typeof FIELDS)[number]);
  };

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const result = prepareOffer(values);
    if (!result.ok) return show(result.error);
    reset();
    save.mutate({ _id: offer?._id ?? null, ...result.offer }, afterSave(onDone));
  }

  return (
    <DialogForm
      formRef={formRef}
      onSubmit={submit}
      error={errorOf('form')}
      onCancel={onDone}
      loading={save.isPending}
    >
      <TextInput
        label={labels.common.name}
        value={values.name}
        onChange={(e) => set('name', e.currentTarget.value)}
        error={errorOf('name')}
        data-autofocus
      />
      <TextInput
        label={L.offerId}
        description={L.offerIdHint}
        value={values.offer_id}
        onChange={(e) => set('offer_id', e.currentTarget.value)}
        error={errorOf('offer_id')}
      />
      <Text fw={600} fz="sm">
        {L.columnLimits}
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        {OFFER_LIMITS.map((field) => (
          <NumberInput
            key={field}
            label={LIMIT_LABELS[field]}
            value={Number.isNaN(values[field]) ? '' : values[field]}
            // Emptied, the field holds no number: the rule names it.
            onChange={(v) => set(field, typeof v === 'number' ? v : v === '' ? Number.NaN : Number(v))}
            min={0}
            max={MAX_OFFER_LIMIT}
            allowDecimal={false}
            allowNegative={false}
            error={errorOf(field)}
          />
        ))}
      </SimpleGrid>
      <Switch
        label={messages.campaignsEnabled}
        checked={values.campaigns_enabled}
        onChange={(e) => set('campaigns_enabled', e.currentTarget.checked)}
      />
    </DialogForm>
  );
}
