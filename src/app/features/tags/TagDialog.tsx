import { ActionIcon, ColorInput, Group, Pill, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { EditDialog } from '@/app/ui/Dialog';
import { DialogForm } from '@/app/ui/FormParts';
import type { EditDialogState } from '@/app/ui/use-edit-dialog';
import { useFormError } from '@/app/ui/use-form-error';
import { useItemId } from '@/app/ui/use-item-id';
import type { Tag } from '@/shared/contract/configuration';
import { labels } from '@/shared/messages';
import { keywordError, newTag, prepareTag } from '@/shared/rules/tag';
import { useSaveTag } from './create-or-update-tag';

// A few colours to pick at a touch; any other comes from the picker or is typed as #RRGGBB.
const SWATCHES = ['#00FF00', '#2F9E44', '#1C7ED6', '#7048E8', '#E64980', '#F03E3E', '#F76707', '#FAB005'];

/** The fields that show their own message; anything else (a server answer) shows under the form. */
const FIELDS = ['name', 'color', 'keyword'] as const;

/** Nova tag / Editar tag (spec 1 "Tags"): name, colour and the auto-tag keywords. */
export function TagDialog({ dialog }: { dialog: EditDialogState<Tag> }) {
  return (
    <EditDialog dialog={dialog} title={dialog.item ? labels.tags.editTag : labels.tags.newTag}>
      <TagForm tag={dialog.item} onDone={dialog.close} />
    </EditDialog>
  );
}

function TagForm({ tag, onDone }: { tag: Tag | null; onDone(): void }) {
  const itemId = useItemId(tag);
  const save = useSaveTag();
  const initial = tag ?? newTag();
  const [name, setName] = useState(initial.name);
  const [color, setColor] = useState(initial.color);
  const [autoTag, setAutoTag] = useState(initial.auto_tag);
  const [keywords, setKeywords] = useState<string[]>(initial.keywords);
  const [pending, setPending] = useState('');
  const { formRef, errorOf, show, clear, reset, afterSave } = useFormError(FIELDS);

  function addKeyword() {
    const problem = keywordError(pending, keywords);
    if (problem) return show(problem);
    setKeywords([...keywords, pending.trim()]);
    setPending('');
    reset();
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    // The same rules as the server: the typed keyword is added, keywords go when auto-tag is off.
    const result = prepareTag({ name, color, auto_tag: autoTag, keywords }, pending);
    if (!result.ok) return show(result.error);
    reset();
    save.mutate({ _id: itemId, ...result.tag }, afterSave(onDone));
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
        value={name}
        onChange={(e) => {
          setName(e.currentTarget.value);
          clear('name');
        }}
        error={errorOf('name')}
        data-autofocus
      />
      <ColorInput
        label={labels.tags.color}
        value={color}
        onChange={(value) => {
          setColor(value);
          clear('color');
        }}
        format="hex"
        swatches={SWATCHES}
        swatchesPerRow={8}
        withEyeDropper={false}
        // Left empty, the field must stay empty so the rule can say the colour is required.
        fixOnBlur={false}
        error={errorOf('color')}
      />
      <Switch
        label={labels.tags.autoAssociateByKeywords}
        checked={autoTag}
        onChange={(e) => {
          setAutoTag(e.currentTarget.checked);
          clear('keyword');
        }}
      />
      {autoTag && (
        <Stack gap="xs">
          <TextInput
            label={labels.tags.keyword}
            description={labels.tags.keywordsHint}
            placeholder={labels.tags.typePressEnter}
            value={pending}
            onChange={(e) => {
              setPending(e.currentTarget.value);
              clear('keyword');
            }}
            onKeyDown={(e) => {
              if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
              e.preventDefault();
              addKeyword();
            }}
            error={errorOf('keyword')}
            enterKeyHint="enter"
            rightSection={
              <ActionIcon variant="subtle" aria-label={labels.tags.addKeyword} onClick={addKeyword}>
                <IconPlus size={18} aria-hidden />
              </ActionIcon>
            }
          />
          {keywords.length > 0 ? (
            <Group
              component="ul"
              aria-label={labels.tags.keywords}
              gap={6}
              m={0}
              p={0}
              style={{ listStyle: 'none' }}
            >
              {keywords.map((k) => (
                <li key={k}>
                  <Pill
                    size="md"
                    withRemoveButton
                    onRemove={() => setKeywords(keywords.filter((x) => x !== k))}
                    removeButtonProps={{
                      'aria-hidden': false,
                      tabIndex: 0,
                      'aria-label': labels.tags.removeKeyword(k),
                    }}
                  >
                    {k}
                  </Pill>
                </li>
              ))}
            </Group>
          ) : (
            <Text fz="sm" c="dimmed">
              {labels.tags.noKeywordAdded}
            </Text>
          )}
        </Stack>
      )}
    </DialogForm>
  );
}
