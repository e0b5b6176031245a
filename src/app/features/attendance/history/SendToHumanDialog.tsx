// 'Enviar para atendimento humano' (spec 2 §2.2): classify tags and pick a department; Transferir resumes
// the conversation there (transfer-conversation to a department).

import { Button, Group, Select, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '@/app/lib/api';
import { useDepartments } from '@/app/lib/lists';
import { useFormMutation } from '@/app/lib/mutation';
import { notifySuccess } from '@/app/lib/notify';
import { Dialog } from '@/app/ui/Dialog';
import { FormError } from '@/app/ui/FormParts';
import { TagSelect } from '@/app/ui/TagSelect';
import { useTagOptions } from '@/app/ui/use-tag-options';
import type { HistoryConversation } from '@/shared/contract/new-conversation';
import { labels, messages } from '@/shared/messages';
import { transferError } from '@/shared/rules/transfer';
import { HISTORY_KEY } from './history-data';

export function SendToHumanDialog({
  conversation,
  onClose,
}: {
  conversation: HistoryConversation | null;
  onClose(): void;
}) {
  return (
    <Dialog opened={conversation !== null} onClose={onClose} title={messages.historySendToHuman}>
      {conversation && <TransferForm conversation={conversation} onClose={onClose} />}
    </Dialog>
  );
}

function TransferForm({ conversation, onClose }: { conversation: HistoryConversation; onClose(): void }) {
  const client = useQueryClient();
  const departments = useDepartments();
  const [tagIds, setTagIds] = useState<string[]>(conversation.contact.tags);
  const [department, setDepartment] = useState<string | null>(conversation.department);
  const { saving, error, setError, save } = useFormMutation();
  const tagOptions = useTagOptions();
  const departmentOptions = (departments.data ?? [])
    .filter((d) => !d.filed)
    .map((d) => ({ value: d._id, label: d.name }));

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const problem = transferError({ type: 'department', department });
    if (problem) return setError(problem.message);
    await save(async () => {
      await api('transfer-conversation', {
        conversation_id: conversation._id,
        type: 'department',
        department,
        tags: tagIds.filter((t) => tagOptions.some((o) => o.value === t)),
      });
      notifySuccess(messages.conversationResumed);
      await client.invalidateQueries({ queryKey: HISTORY_KEY });
      onClose();
    });
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TagSelect
          label={labels.common.tags}
          placeholder={labels.history.classifyWithTags}
          value={tagIds}
          onChange={setTagIds}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label={labels.common.department}
          data={departmentOptions}
          value={department}
          onChange={(v) => {
            setDepartment(v);
            setError(null);
          }}
          comboboxProps={{ withinPortal: true }}
        />
        <FormError message={error} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {labels.common.cancel}
          </Button>
          <Button type="submit" loading={saving}>
            {messages.paneTransferSubmit}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
