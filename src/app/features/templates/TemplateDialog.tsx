// 'Novo template de mensagem' (spec 3 §2.14, §5 Template save): name, category, header (none, text or an
// image), body whose {{ variables }} become {{1}} {{2}}…, footer, up to 10 buttons (quick replies, one URL,
// one phone), and an example for each variable, as Meta asks. The shared rule (templateProblems) checks it
// here with the server's own messages; the server checks it again and sends it to Meta for review.
import {
  ActionIcon,
  Button,
  FileInput,
  Group,
  Paper,
  Radio,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPhoto, IconPlus, IconTrash } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '@/app/lib/api';
import { Dialog } from '@/app/ui/Dialog';
import { DialogForm } from '@/app/ui/FormParts';
import { useFormError } from '@/app/ui/use-form-error';
import {
  TEMPLATE_CATEGORIES,
  TEMPLATE_MAX_BUTTONS,
  type TemplateButton,
  type TemplateCategory,
} from '@/shared/contract/templates';
import { labels, messages } from '@/shared/messages';
import { templateLabels as L } from '@/shared/messages-campaigns';
import {
  normaliseTemplateText,
  templateIndexes,
  templateNameOf,
  templateProblems,
} from '@/shared/rules/template';
import { uploadHeaderImage, useCreateTemplate } from './template-data';

const FIELDS = ['name', 'header', 'body', 'buttons', 'examples'] as const;
type HeaderFormat = 'NONE' | 'TEXT' | 'IMAGE';

export function TemplateDialog({ chip, onClose }: { chip: string; onClose(): void }) {
  const [name, setName] = useState('');
  const [category, setCategory] = useState<TemplateCategory>('MARKETING');
  const [headerFormat, setHeaderFormat] = useState<HeaderFormat>('NONE');
  const [headerText, setHeaderText] = useState('');
  const [image, setImage] = useState<{ url: string; name: string } | null>(null);
  const [uploading, setUploading] = useState(false);
  const [body, setBody] = useState('');
  const [footer, setFooter] = useState('');
  const [buttons, setButtons] = useState<TemplateButton[]>([]);
  const [headerExamples, setHeaderExamples] = useState<string[]>([]);
  const [bodyExamples, setBodyExamples] = useState<string[]>([]);
  const create = useCreateTemplate(chip);
  const form = useFormError(FIELDS);

  const headerVariables = headerFormat === 'TEXT' ? templateIndexes(normaliseTemplateText(headerText)) : [];
  const bodyVariables = templateIndexes(normaliseTemplateText(body));

  const setButton = (i: number, change: Partial<TemplateButton>) => {
    form.clear('buttons');
    setButtons((list) => list.map((b, j) => (j === i ? { ...b, ...change } : b)));
  };

  async function pickImage(file: File | null) {
    form.clear('header');
    setImage(null);
    if (!file) return;
    setUploading(true);
    try {
      const stored = await uploadHeaderImage(file);
      setImage({ url: stored.url, name: file.name });
    } catch (err) {
      form.show({ field: 'header', message: errorMessage(err) });
    } finally {
      setUploading(false);
    }
  }

  const metaName = templateNameOf(name);

  function submit(e: FormEvent) {
    e.preventDefault();
    const normalisedBody = normaliseTemplateText(body.trim());
    const normalisedHeader = normaliseTemplateText(headerText.trim());
    setBody(normalisedBody);
    if (headerFormat === 'TEXT') setHeaderText(normalisedHeader);
    const payload = {
      chip,
      name: metaName,
      category,
      language: 'pt_BR',
      header_format: headerFormat,
      header_text: headerFormat === 'TEXT' ? normalisedHeader : '',
      header_image: headerFormat === 'IMAGE' ? (image?.url ?? null) : null,
      body: normalisedBody,
      footer: footer.trim(),
      buttons,
      header_examples: headerExamples,
      body_examples: bodyExamples,
    };
    const [problem] = templateProblems(payload);
    if (problem) return form.show(problem);
    form.reset();
    create.mutate(payload, form.afterSave(onClose));
  }

  const example = (list: string[], set: (l: string[]) => void, n: number, value: string) => {
    form.clear('examples');
    const next = [...list];
    while (next.length < n) next.push('');
    next[n - 1] = value;
    set(next);
  };

  return (
    <Dialog opened onClose={onClose} title={L.newTitle} size="lg">
      <DialogForm
        formRef={form.formRef}
        onSubmit={submit}
        error={form.errorOf('form')}
        onCancel={onClose}
        loading={create.isPending}
      >
        <TextInput
          label={labels.common.name}
          // What was typed stays; the Meta name it becomes is shown (as a chip's stored name is).
          description={metaName && metaName !== name.trim() ? L.nameSavedAs(metaName) : L.nameHint}
          value={name}
          onChange={(e) => {
            form.clear('name');
            setName(e.currentTarget.value);
          }}
          maxLength={512}
          error={form.errorOf('name')}
          data-autofocus
        />
        <Select
          label={L.category}
          data={TEMPLATE_CATEGORIES.map((c) => ({ value: c, label: L.categories[c] ?? c }))}
          value={category}
          onChange={(v) => v && setCategory(v as TemplateCategory)}
          allowDeselect={false}
        />
        <Radio.Group
          label={L.header}
          value={headerFormat}
          onChange={(v) => {
            form.clear('header');
            setHeaderFormat(v as HeaderFormat);
          }}
          error={headerFormat === 'NONE' ? form.errorOf('header') : null}
        >
          <Group gap="md" mt={4}>
            <Radio value="NONE" label={L.headerNone} />
            <Radio value="TEXT" label={labels.schedule.text} />
            <Radio value="IMAGE" label={messages.image} />
          </Group>
        </Radio.Group>
        {headerFormat === 'TEXT' && (
          <TextInput
            label={L.headerText}
            value={headerText}
            maxLength={60}
            onChange={(e) => {
              form.clear('header');
              setHeaderText(e.currentTarget.value);
            }}
            onBlur={() => setHeaderText((t) => normaliseTemplateText(t))}
            error={form.errorOf('header')}
          />
        )}
        {headerFormat === 'IMAGE' && (
          <FileInput
            label={L.headerImage}
            accept="image/jpeg,image/png"
            leftSection={<IconPhoto size={16} aria-hidden />}
            description={uploading ? L.sendingImage : image ? L.imageSent(image.name) : undefined}
            onChange={(file) => void pickImage(file)}
            disabled={uploading}
            error={form.errorOf('header')}
            clearable
          />
        )}
        <Textarea
          label={L.bodyText}
          description={L.bodyHint}
          value={body}
          autosize
          minRows={3}
          maxRows={10}
          maxLength={1024}
          onChange={(e) => {
            form.clear('body');
            form.clear('examples');
            setBody(e.currentTarget.value);
          }}
          onBlur={() => setBody((b) => normaliseTemplateText(b))}
          error={form.errorOf('body')}
        />
        <TextInput
          label={L.footer}
          value={footer}
          maxLength={60}
          onChange={(e) => setFooter(e.currentTarget.value)}
        />
        <Stack gap="xs">
          <Group justify="space-between" wrap="nowrap">
            <Title order={4} fz="sm">
              {messages.buttons}
            </Title>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPlus size={14} aria-hidden />}
              disabled={buttons.length >= TEMPLATE_MAX_BUTTONS}
              onClick={() => setButtons((l) => [...l, { type: 'QUICK_REPLY', text: '' }])}
            >
              {L.addButton}
            </Button>
          </Group>
          {buttons.map((b, i) => {
            const n = i + 1;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: buttons have no id; a removed one re-keys the rest
              <Paper key={i} withBorder p="xs">
                <Stack gap="xs">
                  <Group gap="xs" align="flex-end" wrap="nowrap">
                    <Select
                      label={L.buttonType}
                      aria-label={`${L.buttonType} ${n}`}
                      data={[
                        { value: 'QUICK_REPLY', label: L.quickReplyButton },
                        { value: 'URL', label: L.buttonUrl },
                        { value: 'PHONE_NUMBER', label: L.buttonPhone },
                      ]}
                      value={b.type}
                      onChange={(v) => v && setButton(i, { type: v as TemplateButton['type'] })}
                      allowDeselect={false}
                      style={{ flex: 1 }}
                    />
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size="lg"
                      aria-label={L.removeButton(n)}
                      onClick={() => {
                        form.clear('buttons');
                        setButtons((l) => l.filter((_, j) => j !== i));
                      }}
                    >
                      <IconTrash size={18} aria-hidden />
                    </ActionIcon>
                  </Group>
                  <TextInput
                    label={L.buttonText(n)}
                    value={b.text}
                    onChange={(e) => setButton(i, { text: e.currentTarget.value })}
                  />
                  {b.type === 'URL' && (
                    <TextInput
                      label={L.buttonUrlAt(n)}
                      value={b.url ?? ''}
                      type="url"
                      onChange={(e) => setButton(i, { url: e.currentTarget.value })}
                    />
                  )}
                  {b.type === 'PHONE_NUMBER' && (
                    <TextInput
                      label={L.buttonPhoneAt(n)}
                      value={b.phone_number ?? ''}
                      type="tel"
                      placeholder="+5511955555555"
                      onChange={(e) => setButton(i, { phone_number: e.currentTarget.value })}
                    />
                  )}
                </Stack>
              </Paper>
            );
          })}
          {form.errorOf('buttons') && (
            <Text c="red" fz="sm" role="alert">
              {form.errorOf('buttons')}
            </Text>
          )}
        </Stack>
        {(headerVariables.length > 0 || bodyVariables.length > 0) && (
          <Stack gap="xs">
            <Title order={4} fz="sm">
              {L.examples}
            </Title>
            {headerVariables.map((n) => (
              <TextInput
                key={`h${n}`}
                label={L.exampleHeader(`{{${n}}}`)}
                value={headerExamples[n - 1] ?? ''}
                onChange={(e) => example(headerExamples, setHeaderExamples, n, e.currentTarget.value)}
              />
            ))}
            {bodyVariables.map((n) => (
              <TextInput
                key={`b${n}`}
                label={L.exampleBody(`{{${n}}}`)}
                value={bodyExamples[n - 1] ?? ''}
                onChange={(e) => example(bodyExamples, setBodyExamples, n, e.currentTarget.value)}
              />
            ))}
            {form.errorOf('examples') && (
              <Text c="red" fz="sm" role="alert">
                {form.errorOf('examples')}
              </Text>
            )}
          </Stack>
        )}
      </DialogForm>
    </Dialog>
  );
}
