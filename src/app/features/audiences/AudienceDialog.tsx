// Importar audiência / Editar audiência (spec 3 §2.9, §5 Audience): the name, create_contacts and the sheet,
// analysed as the contacts import analyses it. A new audience is saved only once its sheet has valid
// people; an edit renames it, or with a new sheet gets that sheet's people instead of its own.
import { Button, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { EditDialog } from '@/app/ui/Dialog';
import { FormError } from '@/app/ui/FormParts';
import type { EditDialogState } from '@/app/ui/use-edit-dialog';
import { useFormError } from '@/app/ui/use-form-error';
import { useItemId } from '@/app/ui/use-item-id';
import { SheetInput, useSheetAnalysis } from '@/app/widgets/sheet/SheetAnalysis';
import type { Audience } from '@/shared/contract/campaigns';
import { labels, messages } from '@/shared/messages';
import { campaignLabels } from '@/shared/messages-campaigns';
import { prepareAudienceName } from '@/shared/rules/audience';
import { useSaveAudience } from './audience-actions';

const L = campaignLabels.audiences;
const FIELDS = ['name'] as const;

export function AudienceDialog({ dialog }: { dialog: EditDialogState<Audience> }) {
  return (
    <EditDialog dialog={dialog} title={dialog.item ? L.editAudience : L.importAudience} size="lg">
      <AudienceForm audience={dialog.item} onDone={dialog.close} />
    </EditDialog>
  );
}

function AudienceForm({ audience, onDone }: { audience: Audience | null; onDone(): void }) {
  const itemId = useItemId(audience);
  const save = useSaveAudience();
  const sheet = useSheetAnalysis();
  const [name, setName] = useState(audience?.name ?? '');
  const [createContacts, setCreateContacts] = useState(audience?.create_contacts ?? true);
  const { formRef, errorOf, show, clear, reset, afterSave } = useFormError(FIELDS);

  const hasPeople = (sheet.analysis?.valid.length ?? 0) > 0;
  // A new audience needs a sheet with valid people; an edit may keep its own people.
  const canSave = hasPeople || (audience !== null && sheet.file === null);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!canSave) return;
    const named = prepareAudienceName(name);
    if (!named.ok) return show(named.error);
    reset();
    save.mutate(
      {
        _id: itemId,
        isNew: audience === null,
        name: named.name,
        create_contacts: createContacts,
        sheet: hasPeople ? sheet.file : null,
      },
      afterSave(onDone),
    );
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label={labels.common.name}
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            clear('name');
          }}
          error={errorOf('name')}
          data-autofocus
        />
        <Switch
          label={L.createContacts}
          description={L.createContactsHint}
          checked={createContacts}
          onChange={(e) => setCreateContacts(e.currentTarget.checked)}
        />
        <Text fz="sm">{messages.importInstructions}</Text>
        <SheetInput
          sheet={sheet}
          label={audience ? L.newSheet : messages.importFile}
          disabled={save.isPending}
        />
        {audience && !sheet.file && (
          <Text fz="sm" c="dimmed">
            {L.newSheetHint}
          </Text>
        )}
        <FormError message={errorOf('form')} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={save.isPending}>
            {labels.common.cancel}
          </Button>
          {canSave && (
            <Button type="submit" loading={save.isPending}>
              {labels.common.save}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
