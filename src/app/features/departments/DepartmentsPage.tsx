import { Button, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useDepartments } from '@/app/lib/lists';
import { SaibaMais } from '@/app/ui/HelpDialog';
import { byText, ListTable, RowActions } from '@/app/ui/ListTable';
import { PageHeader } from '@/app/ui/PageHeader';
import { useEditDialog } from '@/app/ui/use-edit-dialog';
import type { Department } from '@/shared/contract/configuration';
import { labels, messages } from '@/shared/messages';
import { useDeleteDepartment } from './create-or-update-department';
import { DepartmentDialog } from './DepartmentDialog';

const byName = (a: Department, b: Department) => byText(a.name, b.name);

/** /departamentos (spec 1 "Departments"): name and description; agents serve the departments they hold. */
export function DepartmentsPage() {
  const departments = useDepartments();
  const dialog = useEditDialog<Department>();
  const remove = useDeleteDepartment();

  return (
    <>
      <PageHeader title={labels.common.departments}>
        <SaibaMais topic="equipe" />
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={dialog.openNew}>
          {labels.departments.newDepartment}
        </Button>
      </PageHeader>
      <ListTable
        label={labels.common.departments}
        query={departments}
        rowKey={(d) => d._id}
        sort={byName}
        empty={labels.departments.noDepartmentRegistered}
        columns={[
          { label: labels.common.name, primary: true, render: (d) => d.name },
          {
            label: labels.departments.description,
            render: (d) =>
              d.description || (
                <Text span fz="sm" c="dimmed">
                  —
                </Text>
              ),
          },
        ]}
        actions={(d) => (
          <RowActions
            onEdit={() => dialog.openEdit(d)}
            onDelete={() => remove.mutate(d)}
            confirmDelete={{
              title: labels.departments.deleteDepartment,
              // The server refuses to leave attendants without a department: say so before, not after.
              message: d.sole_attendants?.length
                ? messages.departmentOnlyOf(d.sole_attendants)
                : labels.departments.confirmDeleteDepartment(d.name),
            }}
          />
        )}
      />
      <DepartmentDialog dialog={dialog} />
    </>
  );
}
