// The trigger settings (spec 3 §3 Flow): keywords that start the flow on every chip but the disabled ones,
// and whether they also start it in conversations a person is serving.
import { Drawer, MultiSelect, Stack, Switch, TagsInput, Text } from '@mantine/core';
import { useChips } from '@/app/lib/lists';
import { useBackClose } from '@/app/ui/back-stack';
import { labels, messages } from '@/shared/messages';
import { flowEditorLabels } from '@/shared/messages-editors';
import { triggerProblem } from '@/shared/rules/flow';
import type { TriggerSettings } from './graph';

const L = flowEditorLabels;

export function TriggerDrawer({
  opened,
  onClose,
  value,
  onChange,
  mobile,
}: {
  opened: boolean;
  onClose(): void;
  value: TriggerSettings;
  onChange(v: TriggerSettings): void;
  mobile: boolean;
}) {
  const chips = useChips();
  const problem = triggerProblem(value);
  const top = useBackClose(opened, onClose);
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      closeOnEscape={top}
      title={L.triggerSettings}
      position={mobile ? 'bottom' : 'right'}
      size={mobile ? '85%' : 400}
      closeButtonProps={{ 'aria-label': labels.app.close }}
    >
      <Stack gap="md">
        <Switch
          label={L.startByKeyword}
          checked={value.trigger}
          onChange={(e) => onChange({ ...value, trigger: e.currentTarget.checked })}
        />
        <TagsInput
          label={labels.tags.keywords}
          placeholder={L.keywordsHint}
          value={value.keywords}
          onChange={(keywords) => onChange({ ...value, keywords })}
          maxTags={100}
          clearable
          disabled={!value.trigger}
          // With the trigger on and no keyword, the rule's message at once.
          error={problem ?? undefined}
        />
        <Switch
          label={L.startInHumanService}
          checked={value.trigger_human}
          disabled={!value.trigger}
          onChange={(e) => onChange({ ...value, trigger_human: e.currentTarget.checked })}
        />
        {chips.data && chips.data.length === 0 ? (
          <Text c="dimmed" fz="sm">
            {messages.noChips}
          </Text>
        ) : (
          <MultiSelect
            label={L.chipsDisabled}
            data={(chips.data ?? []).map((c) => ({ value: c._id, label: c.name }))}
            value={value.disabled_chips}
            onChange={(disabled_chips) => onChange({ ...value, disabled_chips })}
            searchable
            clearable
            disabled={!value.trigger}
          />
        )}
      </Stack>
    </Drawer>
  );
}
