import { Select, Switch, TextInput } from '@mantine/core';
import { useState } from 'react';
import { chatbotOptions, flowOptions, useChatbots, useDepartments, useFlows } from '@/app/lib/lists';
import { EditDialog } from '@/app/ui/Dialog';
import { DialogForm } from '@/app/ui/FormParts';
import type { EditDialogState } from '@/app/ui/use-edit-dialog';
import { useFormError } from '@/app/ui/use-form-error';
import { useItemId } from '@/app/ui/use-item-id';
import { type ChipRedirect, DEFAULT_CHIP_REDIRECT } from '@/shared/constants';
import type { Chip } from '@/shared/contract';
import { labels } from '@/shared/messages';
import { chipLabels, chipMessages } from '@/shared/messages-chips';
import { cleanChipName, prepareChip } from '@/shared/rules/chip';
import { REDIRECT_OPTIONS } from './chip-view';
import { useSaveChip } from './create-or-update-chip';

/** The fields that show their own message; anything else (the plan's limit) shows under the form. */
const FIELDS = ['name', 'redirect', 'chatbot', 'flow', 'department'] as const;

/** Novo chip / Editar chip (spec 3 §2.6, §5): name, first service and its target, entry department. */
export function ChipDialog({ dialog }: { dialog: EditDialogState<Chip> }) {
  return (
    <EditDialog dialog={dialog} title={dialog.item ? chipLabels.editChip : chipLabels.newChip}>
      <ChipForm chip={dialog.item} onDone={dialog.close} />
    </EditDialog>
  );
}

function ChipForm({ chip, onDone }: { chip: Chip | null; onDone(): void }) {
  const itemId = useItemId(chip);
  const save = useSaveChip();
  const departments = useDepartments();
  const flows = useFlows();
  const chatbots = useChatbots();
  const [name, setName] = useState(chip?.name ?? '');
  const [redirect, setRedirect] = useState<ChipRedirect | ''>(chip?.redirect ?? DEFAULT_CHIP_REDIRECT);
  const [chatbot, setChatbot] = useState<string | null>(chip?.chatbot ?? null);
  const [flow, setFlow] = useState<string | null>(chip?.flow ?? null);
  const [department, setDepartment] = useState<string | null>(chip?.department ?? null);
  const [official, setOfficial] = useState(false);
  const { formRef, errorOf, show, clear, reset, afterSave } = useFormError(FIELDS);

  const stored = cleanChipName(name);
  const nameHint =
    stored && stored !== name.trim() ? chipMessages.chipNameStoredAs(stored) : chipMessages.chipNameHint;

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const result = prepareChip({ name, redirect, chatbot, flow, department });
    if (!result.ok) return show(result.error);
    reset();
    save.mutate(
      { chip: { _id: itemId, ...result.chip, ...(!chip && { official }) }, created: !chip },
      afterSave(onDone),
    );
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
        description={nameHint}
        value={name}
        onChange={(e) => {
          setName(e.currentTarget.value);
          clear('name');
        }}
        error={errorOf('name')}
        maxLength={100}
        data-autofocus
      />
      <Select
        label={chipLabels.firstServiceType}
        description={chipLabels.firstServiceHint}
        placeholder={labels.chips.select}
        data={REDIRECT_OPTIONS}
        value={redirect || null}
        // Picking the chosen option again keeps it (a required choice is never cleared by a second click).
        allowDeselect={false}
        onChange={(value) => {
          setRedirect((value as ChipRedirect | null) ?? '');
          clear('redirect');
          clear('chatbot');
          clear('flow');
        }}
        error={errorOf('redirect')}
      />
      {redirect === 'ai_chatbot' && (
        <Select
          label={labels.common.chatbot}
          placeholder={labels.chips.selectChatbot}
          data={chatbotOptions(chatbots.data)}
          value={chatbot}
          onChange={(value) => {
            setChatbot(value);
            clear('chatbot');
          }}
          nothingFoundMessage={labels.chips.noChatbotRegistered}
          error={errorOf('chatbot')}
        />
      )}
      {redirect === 'flow_chatbot' && (
        <Select
          label={labels.common.flow}
          placeholder={labels.chips.selectFlow}
          data={flowOptions(flows.data)}
          value={flow}
          onChange={(value) => {
            setFlow(value);
            clear('flow');
          }}
          nothingFoundMessage={labels.chips.noFlowRegistered}
          error={errorOf('flow')}
        />
      )}
      <Select
        label={chipLabels.inboundDepartment}
        description={chipLabels.inboundDepartmentHint}
        placeholder={labels.chips.selectDepartment}
        data={(departments.data ?? []).map((d) => ({ value: d._id, label: d.name }))}
        value={department}
        onChange={(value) => {
          setDepartment(value);
          clear('department');
        }}
        nothingFoundMessage={labels.chips.noDepartmentRegistered}
        error={errorOf('department')}
      />
      {!chip && (
        <Switch
          label={labels.chips.officialApiNumber}
          description={chipMessages.officialChipHint}
          checked={official}
          onChange={(e) => setOfficial(e.currentTarget.checked)}
        />
      )}
    </DialogForm>
  );
}
