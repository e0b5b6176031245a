// The editor's header: back to the list, the flow's name, and its actions (trigger, export, reset, save). On
// phones the actions are icons with their names as aria-labels.
import { ActionIcon, Button, Group, TextInput } from '@mantine/core';
import { IconArrowLeft, IconBolt, IconDeviceFloppy, IconDownload, IconRestore } from '@tabler/icons-react';
import { labels } from '@/shared/messages';
import { flowEditorLabels } from '@/shared/messages-editors';

const L = flowEditorLabels;

export function EditorHeader(props: {
  mobile: boolean;
  name: string;
  onName(name: string): void;
  saving: boolean;
  triggerOn: boolean;
  onBack(): void;
  onTrigger(): void;
  onExport(): void;
  onReset(): void;
  onSave(): void;
}) {
  const { mobile } = props;
  const actions = [
    { label: labels.flows.trigger, icon: IconBolt, onClick: props.onTrigger, dot: props.triggerOn },
    { label: labels.flows.export, icon: IconDownload, onClick: props.onExport },
    { label: L.restore, icon: IconRestore, onClick: props.onReset },
  ];
  return (
    <Group
      component="header"
      gap={mobile ? 4 : 'sm'}
      px={mobile ? 4 : 'md'}
      h={56}
      wrap="nowrap"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-3)', flexShrink: 0 }}
    >
      <ActionIcon variant="subtle" color="gray" size="lg" aria-label={L.backToFlows} onClick={props.onBack}>
        <IconArrowLeft size={22} aria-hidden />
      </ActionIcon>
      <TextInput
        aria-label={L.flowName}
        placeholder={L.flowName}
        value={props.name}
        onChange={(e) => props.onName(e.currentTarget.value)}
        maxLength={200}
        style={{ flex: mobile ? 1 : '0 1 360px', minWidth: 0 }}
      />
      <Group gap={mobile ? 0 : 'xs'} wrap="nowrap" ml="auto">
        {actions.map(({ label, icon: Icon, onClick, dot }) =>
          mobile ? (
            <ActionIcon
              key={label}
              variant="subtle"
              color={dot ? 'green' : 'gray'}
              size="lg"
              aria-label={label}
              onClick={onClick}
            >
              <Icon size={20} aria-hidden />
            </ActionIcon>
          ) : (
            <Button
              key={label}
              variant="default"
              leftSection={
                <Icon size={18} aria-hidden color={dot ? 'var(--mantine-color-green-7)' : undefined} />
              }
              onClick={onClick}
            >
              {label}
            </Button>
          ),
        )}
        {mobile ? (
          <ActionIcon
            variant="filled"
            size="lg"
            ml={4}
            aria-label={labels.common.save}
            onClick={props.onSave}
            loading={props.saving}
          >
            <IconDeviceFloppy size={20} aria-hidden />
          </ActionIcon>
        ) : (
          <Button
            leftSection={<IconDeviceFloppy size={18} aria-hidden />}
            onClick={props.onSave}
            loading={props.saving}
          >
            {labels.common.save}
          </Button>
        )}
      </Group>
    </Group>
  );
}
