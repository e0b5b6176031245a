// Nova conversa (spec 2 §2.3, §5 New conversation, §9): a contact from the picker (10 a page, searched 250 ms
// after typing stops) or a new number with its country code (default 55). On a non-official chip the number
// is checked first (check-phone); an official chip needs an APPROVED template with fixed content. Then
// start-new-conversation opens it.

import {
  Button,
  Center,
  Group,
  Loader,
  Pagination,
  Radio,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '@/app/lib/api';
import { useChips, useDepartments } from '@/app/lib/lists';
import { useFormMutation } from '@/app/lib/mutation';
import { notifySuccess } from '@/app/lib/notify';
import { callQuery } from '@/app/lib/query';
import { useCurrentUser } from '@/app/lib/user';
import { displayName } from '@/app/ui/contact-name';
import { Dialog } from '@/app/ui/Dialog';
import { FormError } from '@/app/ui/FormParts';
import { useTemplates } from '@/app/widgets/schedule/scheduled-messages';
import { DEFAULT_COUNTRY_CODE } from '@/shared/constants';
import type { Conversation } from '@/shared/contract/conversations';
import { formatPhone } from '@/shared/format';
import { labels, messages } from '@/shared/messages';
import { seesDepartment, subjectOfAnswer } from '@/shared/rules/access';

export const CONTACT_PICKER_PAGE = 10;
export const CONTACT_PICKER_DELAY_MS = 250;

interface Props {
  opened: boolean;
  onClose(): void;
  onStarted(conversation: Conversation): void;
}

export function NewConversationDialog({ opened, onClose, onStarted }: Props) {
  return (
    <Dialog opened={opened} onClose={onClose} title={messages.newConversationPushTitle} size="lg">
      {opened && <NewConversationForm onClose={onClose} onStarted={onStarted} />}
    </Dialog>
  );
}

function ContactPicker({ value, onChange }: { value: string | null; onChange(id: string): void }) {
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), CONTACT_PICKER_DELAY_MS);
  const [page, setPage] = useState(1);
  const contacts = useQuery({
    ...callQuery('get-contacts-for-new-conversation', { query, page, itemsPerPage: CONTACT_PICKER_PAGE }),
    placeholderData: keepPreviousData,
  });
  const pages = Math.max(1, Math.ceil((contacts.data?.total ?? 0) / CONTACT_PICKER_PAGE));
  return (
    <Stack gap="xs">
      <TextInput
        label={labels.attendance.searchContact}
        placeholder={messages.filterText}
        type="search"
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
      />
      {contacts.isPending ? (
        <Center py="sm">
          <Loader size="sm" aria-label={labels.common.loading} />
        </Center>
      ) : contacts.data?.contacts.length ? (
        <Radio.Group label={messages.contactLabel} value={value} onChange={onChange}>
          <Stack gap={6} mt={6}>
            {contacts.data.contacts.map((c) => (
              <Radio
                key={c._id}
                value={c._id}
                label={
                  displayName(c) === formatPhone(c.phone)
                    ? displayName(c)
                    : `${displayName(c)} · ${formatPhone(c.phone)}`
                }
              />
            ))}
          </Stack>
        </Radio.Group>
      ) : (
        <Text c="dimmed" fz="sm">
          {messages.contactsEmpty}
        </Text>
      )}
      {pages > 1 && (
        <Pagination
          size="sm"
          total={pages}
          value={Math.min(page, pages)}
          onChange={setPage}
          aria-label={labels.attendance.contactsPages}
          getItemProps={(p) => ({ 'aria-label': labels.common.page(p) })}
          getControlProps={(control) => ({
            'aria-label': control === 'previous' ? labels.common.previousPage : labels.common.nextPage,
          })}
        />
      )}
    </Stack>
  );
}

function NewConversationForm({ onClose, onStarted }: Omit<Props, 'opened'>) {
  const user = useCurrentUser();
  const chips = useChips();
  const departments = useDepartments();
  const [chipId, setChipId] = useState<string | null>(null);
  const [mode, setMode] = useState<'contact' | 'phone'>('phone');
  const [contactId, setContactId] = useState<string | null>(null);
  const [countryCode, setCountryCode] = useState(DEFAULT_COUNTRY_CODE);
  const [phone, setPhone] = useState('');
  const [department, setDepartment] = useState<string | null>(null);
  const [templateKey, setTemplateKey] = useState<string | null>(null);
  const { saving, error, setError, save } = useFormMutation();

  const chip = (chips.data ?? []).find((c) => c._id === chipId) ?? null;
  const templates = useTemplates(chip?.official ? chip.waba : null);
  const template = (templates.data ?? []).find((t) => `${t.name}|${t.language}` === templateKey) ?? null;
  const chipOptions = (chips.data ?? [])
    .filter((c) => !c.filed)
    .map((c) => ({ value: c._id, label: c.official ? `${c.name} (API Oficial)` : c.name }));
  const departmentOptions = (departments.data ?? [])
    .filter((d) => !d.filed && seesDepartment(subjectOfAnswer(user), d._id))
    .map((d) => ({ value: d._id, label: d.name }));

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    if (!chip) return setError(messages.scheduleChipRequired);
    if (mode === 'contact' && !contactId) return setError(messages.newConversationContactOrPhone);
    const cc = countryCode.trim();
    const digits = phone.trim();
    if (mode === 'phone') {
      if (!digits) return setError(messages.scheduleToRequired);
      if (!/^\d+$/.test(digits)) return setError(messages.invalidPhone);
      if (!/^\d{1,4}$/.test(cc)) return setError(messages.scheduleCountryCodeInvalid);
    }
    if (chip.official && !template) return setError(messages.scheduleTemplateRequired);
    await save(async () => {
      let number: string | undefined;
      if (mode === 'phone') {
        number = `${cc}${digits}`;
        // A new number on a non-official chip: does it have WhatsApp? (spec 2 §5)
        if (!chip.official) {
          const checked = await api('check-phone', { phone: `+${number}`, chip: chip._id });
          if (!checked.exists) return setError(messages.newConversationPhoneNotOnWhatsapp);
          number = checked.phone;
        }
      }
      const conversation = await api('start-new-conversation', {
        chip: chip._id,
        ...(mode === 'contact' ? { contact_id: contactId ?? undefined } : { phone: number }),
        department,
        template,
      });
      notifySuccess(messages.newConversationStarted);
      onStarted(conversation);
      onClose();
    });
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Select
          label={messages.chip}
          placeholder={labels.common.chooseChip}
          data={chipOptions}
          value={chipId}
          onChange={(v) => {
            setChipId(v);
            setTemplateKey(null);
            setError(null);
          }}
          error={chips.isError ? messages.chipsLoadFailed : undefined}
          comboboxProps={{ withinPortal: true }}
        />
        <SegmentedControl
          aria-label={labels.attendance.recipient}
          value={mode}
          onChange={(v) => {
            setMode(v as 'contact' | 'phone');
            setError(null);
          }}
          data={[
            { value: 'phone', label: labels.attendance.newNumber },
            { value: 'contact', label: messages.contactLabel },
          ]}
        />
        {mode === 'contact' ? (
          <ContactPicker value={contactId} onChange={setContactId} />
        ) : (
          <Group grow align="flex-start" wrap="nowrap" gap="sm">
            <TextInput
              label={labels.common.countryCode}
              inputMode="numeric"
              maw={130}
              value={countryCode}
              onChange={(e) => setCountryCode(e.currentTarget.value)}
            />
            <TextInput
              label={labels.common.phone}
              placeholder={labels.common.areaCodeAndNumber}
              inputMode="numeric"
              value={phone}
              onChange={(e) => setPhone(e.currentTarget.value)}
            />
          </Group>
        )}
        <Select
          label={labels.common.department}
          placeholder={labels.attendance.chipDepartment}
          data={departmentOptions}
          value={department}
          onChange={setDepartment}
          clearable
          comboboxProps={{ withinPortal: true }}
        />
        {chip?.official && (
          <Select
            label={labels.common.messageTemplate}
            description={labels.common.onlyTemplatesApprovedAndNoVariables}
            placeholder={templates.isPending ? labels.common.loadingTemplates : labels.common.chooseTemplate}
            nothingFoundMessage={labels.attendance.noTemplateAvailable}
            data={(templates.data ?? []).map((t) => ({
              value: `${t.name}|${t.language}`,
              label: `${t.name} (${t.language})`,
            }))}
            value={templateKey}
            onChange={setTemplateKey}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        {template && (
          <Textarea
            label={labels.common.templatePreview}
            value={template.preview}
            readOnly
            autosize
            minRows={2}
          />
        )}
        <FormError message={error} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {labels.common.cancel}
          </Button>
          <Button type="submit" loading={saving}>
            {labels.attendance.startConversation}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
