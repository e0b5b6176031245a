import { Button, Group, Radio, Select, Stack } from '@mantine/core';
import { useState } from 'react';
import { api } from '@/app/lib/api';
import { chatbotOptions, flowOptions, useChatbots, useDepartments, useFlows } from '@/app/lib/lists';
import { useFormMutation } from '@/app/lib/mutation';
import { Dialog } from '@/app/ui/Dialog';
import { FormError } from '@/app/ui/FormParts';
import type { Conversation } from '@/shared/contract/conversations';
import { labels, messages } from '@/shared/messages';
import { type TransferType, transferError } from '@/shared/rules/transfer';

interface Props {
  conversation: Conversation;
  opened: boolean;
  onClose(): void;
  onTransferred(conversation: Conversation): void;
}

/**
 * Transferência (spec 2 §4, §5): to a department (a person serves it), an AI chatbot or a flow. Transferir
 * waits for a type; each type needs its target, with the same messages the server gives.
 */
export function TransferDialog({ conversation, opened, onClose, onTransferred }: Props) {
  return (
    <Dialog opened={opened} onClose={onClose} title={messages.transfer}>
      <TransferForm conversation={conversation} onCancel={onClose} onTransferred={onTransferred} />
    </Dialog>
  );
}

function TransferForm({
  conversation,
  onCancel,
  onTransferred,
}: {
  conversation: Conversation;
  onCancel(): void;
  onTransferred(conversation: Conversation): void;
}) {
  const departments = useDepartments();
  const flows = useFlows();
  const flowChoices = flowOptions(flows.data);
  const chatbots = useChatbots();
  const chatbotChoices = chatbotOptions(chatbots.data);
  const [type, setType] = useState<TransferType | ''>('');
  const [department, setDepartment] = useState<string | null>(null);
  const [chatbot, setChatbot] = useState<string | null>(null);
  const [flow, setFlow] = useState<string | null>(null);
  const { saving, error, setError, save } = useFormMutation();

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const input = { type, department, chatbot, flow };
    const problem = transferError(input);
    if (problem) return setError(problem.message);
    await save(async () => {
      const answer = await api('transfer-conversation', {
        conversation_id: conversation._id,
        type,
        department: type === 'department' ? department : null,
        chatbot: type === 'chatbot' ? chatbot : null,
        flow: type === 'flow' ? flow : null,
      });
      onTransferred(answer);
      onCancel();
    });
  }

  const departmentOptions = (departments.data ?? [])
    .filter((d) => !d.filed)
    .map((d) => ({ value: d._id, label: d.name }));

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Radio.Group
          label={messages.paneTransferType}
          value={type}
          onChange={(value) => {
            setType(value as TransferType);
            setError(null);
          }}
        >
          <Group mt="xs">
            <Radio value="department" label={labels.common.department} />
            <Radio value="chatbot" label={labels.common.chatbot} />
            <Radio value="flow" label={labels.common.flow} />
          </Group>
        </Radio.Group>
        {type === 'department' && (
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
        )}
        {type === 'chatbot' && (
          <Select
            label={labels.common.chatbot}
            description={chatbots.data && chatbotChoices.length === 0 ? messages.noChatbots : undefined}
            data={chatbotChoices}
            value={chatbot}
            onChange={(v) => {
              setChatbot(v);
              setError(null);
            }}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        {type === 'flow' && (
          <Select
            label={labels.common.flow}
            description={flows.data && flowChoices.length === 0 ? messages.noFlows : undefined}
            data={flowChoices}
            value={flow}
            onChange={(v) => {
              setFlow(v);
              setError(null);
            }}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        <FormError message={error} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {labels.common.cancel}
          </Button>
          <Button type="submit" disabled={!type} loading={saving}>
            {messages.paneTransferSubmit}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
