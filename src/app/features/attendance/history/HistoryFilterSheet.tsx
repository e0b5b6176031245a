// The finished conversations' filter sheet (spec 2 §2.2): type of service (multiple, at least one),
// department, tags and a search by name or phone; Limpar filtros and Aplicar filtros.

import { Button, Checkbox, Drawer, Group, MultiSelect, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useDepartments } from '@/app/lib/lists';
import { useBackClose } from '@/app/ui/back-stack';
import { TagSelect } from '@/app/ui/TagSelect';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import type { User } from '@/shared/contract';
import { labels, messages } from '@/shared/messages';
import { seesDepartment, subjectOfAnswer } from '@/shared/rules/access';
import { EMPTY_HISTORY_FILTER, type HistoryFilter, type HistoryType } from './history-data';

interface Props {
  opened: boolean;
  onClose(): void;
  user: User;
  value: HistoryFilter;
  onApply(filter: HistoryFilter): void;
}

export function HistoryFilterSheet({ opened, onClose, ...form }: Props) {
  const mobile = useIsMobile();
  const top = useBackClose(opened, onClose);
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      closeOnEscape={top}
      title={labels.contacts.filters}
      position="right"
      size={mobile ? '100%' : 400}
    >
      {opened && <FilterForm {...form} />}
    </Drawer>
  );
}

function FilterForm({ user, value, onApply }: Omit<Props, 'opened' | 'onClose'>) {
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const departments = useDepartments();
  const departmentOptions = (departments.data ?? [])
    .filter((d) => !d.filed && seesDepartment(subjectOfAnswer(user), d._id))
    .map((d) => ({ value: d._id, label: d.name }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (draft.types.length === 0) return setError(messages.historyTypesRequired);
    onApply({ ...draft, text: draft.text.trim() });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Checkbox.Group
          label={labels.history.serviceType}
          withAsterisk
          value={draft.types}
          onChange={(v) => {
            setDraft((d) => ({ ...d, types: v as HistoryType[] }));
            setError(v.length ? null : messages.historyTypesRequired);
          }}
          error={error}
        >
          <Group mt="xs">
            <Checkbox value="chatbot" label={labels.common.chatbot} />
            <Checkbox value="human" label={messages.human} />
          </Group>
        </Checkbox.Group>
        <MultiSelect
          label={labels.common.department}
          placeholder={labels.common.all}
          data={departmentOptions}
          value={draft.departments.filter((d) => departmentOptions.some((o) => o.value === d))}
          onChange={(v) => setDraft((d) => ({ ...d, departments: v }))}
          clearable
          comboboxProps={{ withinPortal: true }}
        />
        <TagSelect
          label={labels.common.tags}
          placeholder={messages.filterSituationAll}
          value={draft.tags}
          onChange={(v) => setDraft((d) => ({ ...d, tags: v }))}
          hidePickedOptions={false}
          comboboxProps={{ withinPortal: true }}
        />
        <TextInput
          label={messages.contactsSearch}
          type="search"
          value={draft.text}
          onChange={(e) => {
            const text = e.currentTarget.value;
            setDraft((d) => ({ ...d, text }));
          }}
        />
        <Group justify="space-between" mt="sm">
          <Button
            variant="default"
            onClick={() => {
              setError(null);
              setDraft(EMPTY_HISTORY_FILTER);
              onApply(EMPTY_HISTORY_FILTER);
            }}
          >
            {messages.listClearFilters}
          </Button>
          <Button type="submit">{messages.listApplyFilters}</Button>
        </Group>
      </Stack>
    </form>
  );
}
