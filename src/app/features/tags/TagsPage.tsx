import { Button, ColorSwatch, Group, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTags } from '@/app/lib/lists';
import { SaibaMais } from '@/app/ui/HelpDialog';
import { byText, ListTable, RowActions } from '@/app/ui/ListTable';
import { PageHeader } from '@/app/ui/PageHeader';
import { useEditDialog } from '@/app/ui/use-edit-dialog';
import type { Tag } from '@/shared/contract/configuration';
import { labels } from '@/shared/messages';
import { useDeleteTag } from './create-or-update-tag';
import { TagDialog } from './TagDialog';

const byName = (a: Tag, b: Tag) => byText(a.name, b.name);

/** /tags (spec 1 "Tags"): the account's tags, with their colour and the auto-tag keywords. */
export function TagsPage() {
  const tags = useTags();
  const dialog = useEditDialog<Tag>();
  const remove = useDeleteTag();

  return (
    <>
      <PageHeader title={labels.tags.tagsOrLabels}>
        <SaibaMais topic="contatos" />
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={dialog.openNew}>
          {labels.tags.newTag}
        </Button>
      </PageHeader>
      <ListTable
        label={labels.common.tags}
        query={tags}
        rowKey={(t) => t._id}
        sort={byName}
        empty="Nenhuma tag cadastrada."
        columns={[
          { label: labels.common.name, primary: true, render: (t) => t.name },
          {
            label: labels.tags.color,
            render: (t) => (
              <Group gap="xs" wrap="nowrap">
                <ColorSwatch color={t.color} size={20} aria-hidden />
                <Text fz="sm" ff="monospace">
                  {t.color}
                </Text>
              </Group>
            ),
          },
        ]}
        actions={(t) => (
          <RowActions
            onEdit={() => dialog.openEdit(t)}
            onDelete={() => remove.mutate(t)}
            confirmDelete={{ title: labels.tags.deleteTag, message: labels.tags.confirmDeleteTag(t.name) }}
          />
        )}
      />
      <TagDialog dialog={dialog} />
    </>
  );
}
