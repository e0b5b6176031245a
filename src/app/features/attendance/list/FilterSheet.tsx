// 'Buscar ou filtrar' (spec 2 §2.3): the filter sheet. The form starts from the applied filter at every
// opening; nothing changes in the list until 'Aplicar filtros' (or Enter in the search box).

import { Button, Checkbox, Drawer, Group, MultiSelect, Radio, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { chipsQuery } from '@/app/lib/chips';
import { useDepartments } from '@/app/lib/lists';
import { useBackClose } from '@/app/ui/back-stack';
import { TagSelect } from '@/app/ui/TagSelect';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import type { User } from '@/shared/contract';
import { labels, messages } from '@/shared/messages';
import { seesDepartment, subjectOfAnswer } from '@/shared/rules/access';
import type { ConversationFilter, ConversationType } from './list-view';

/** The chosen values the select can name (a deleted tag or chip is not shown as a blank pill). */
const known = (values: string[], options: { value: string }[]) =>
  values.filter((v) => options.some((o) => o.value === v));

interface Props {
  opened: boolean;
  onClose(): void;
  user: User;
  value: ConversationFilter;
  fallback: ConversationFilter;
  onApply(filter: ConversationFilter): void;
}

export function FilterSheet({ opened, onClose, ...form }: Props) {
  const mobile = useIsMobile();
  const top = useBackClose(opened, onClose);
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      closeOnEscape={top}
      title={messages.listSearchOrFilter}
      position="right"
      size={mobile ? '100%' : 400}
    >
      <FilterForm {...form} />
    </Drawer>
  );
}

function FilterForm({ user, value, fallback, onApply }: Omit<Props, 'opened' | 'onClose'>) {
  const [draft, setDraft] = useState(value);
  const set = (change: Partial<ConversationFilter>) => setDraft((d) => ({ ...d, ...change }));
  const departments = useDepartments();
  const chips = useQuery(chipsQuery);

  // Attendants are offered only their own departments (spec 2 §6).
  const departmentOptions = (departments.data ?? [])
    .filter((d) => !d.filed && seesDepartment(subjectOfAnswer(user), d._id))
    .map((d) => ({ value: d._id, label: d.name }));
  const chipOptions = (chips.data ?? []).map((c) => ({ value: c._id, label: c.name }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply(draft);
  };

  return (
    <form onSubmit={submit}>
      <Stack gap="md">
        <TextInput
          label={messages.filterText}
          placeholder={messages.filterTextPlaceholder}
          value={draft.text}
          maxLength={100}
          onChange={(e) => set({ text: e.currentTarget.value })}
          type="search"
        />
        <Radio.Group
          label={messages.filterSituation}
          value={draft.situation}
          onChange={(v) => set({ situation: v === 'waiting_response' ? 'waiting_response' : 'all' })}
        >
          <Group gap="lg" mt={6}>
            <Radio value="all" label={messages.filterSituationAll} />
            <Radio value="waiting_response" label={messages.filterSituationWaiting} />
          </Group>
        </Radio.Group>
        <Checkbox
          className="touch-below"
          label={labels.departments.mine}
          description={labels.departments.mineExplanation}
          checked={draft.assigned_user === user._id}
          onChange={(e) => set({ assigned_user: e.currentTarget.checked ? user._id : null })}
        />
        <Checkbox.Group
          label={messages.filterType}
          value={draft.types}
          onChange={(v) => set({ types: v as ConversationType[] })}
        >
          <Group gap="lg" mt={6}>
            <Checkbox value="chatbot" label={labels.common.chatbot} />
            <Checkbox value="human" label={messages.human} />
          </Group>
        </Checkbox.Group>
        <MultiSelect
          label={labels.common.departments}
          placeholder={draft.departments.length ? undefined : labels.common.all}
          data={departmentOptions}
          value={known(draft.departments, departmentOptions)}
          onChange={(departments) => set({ departments })}
          searchable
          clearable
        />
        <TagSelect
          label={labels.common.tags}
          placeholder={draft.tags.length ? undefined : labels.common.all}
          value={draft.tags}
          onChange={(tags) => set({ tags })}
          hidePickedOptions={false}
        />
        <MultiSelect
          label={labels.common.chips}
          placeholder={draft.chips.length ? undefined : labels.common.all}
          data={chipOptions}
          value={known(draft.chips, chipOptions)}
          onChange={(chips) => set({ chips })}
          searchable
          clearable
        />
        <Group justify="flex-end" gap="sm" mt="sm">
          <Button variant="default" onClick={() => onApply(fallback)}>
            {messages.listClearFilters}
          </Button>
          <Button type="submit">{messages.listApplyFilters}</Button>
        </Group>
      </Stack>
    </form>
  );
}
