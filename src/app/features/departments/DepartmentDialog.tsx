import { Switch, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { EditDialog } from '@/app/ui/Dialog';
import { DialogForm } from '@/app/ui/FormParts';
import type { EditDialogState } from '@/app/ui/use-edit-dialog';
import { useFormError } from '@/app/ui/use-form-error';
import { useItemId } from '@/app/ui/use-item-id';
import type { Department } from '@/shared/contract/configuration';
import { labels } from '@/shared/messages';
import { prepareDepartment } from '@/shared/rules/department';
import { useSaveDepartment } from './create-or-update-department';

/** The name's one rule shows on the name; anything else (a server answer) shows under the form. */
const FIELDS = ['name'] as const;

export function DepartmentDialog({ dialog }: { dialog: EditDialogState<Department> }) {
  return (
    <EditDialog
      dialog={dialog}
      title={dialog.item ? labels.departments.editDepartment : labels.departments.newDepartment}
    >
      <DepartmentForm department={dialog.item} onDone={dialog.close} />
    </EditDialog>
  );
}

function DepartmentForm({ department, onDone }: { department: Department | null; onDone(): void }) {
  const itemId = useItemId(department);
  const save = useSaveDepartment();
  const [name, setName] = useState(department?.name ?? '');
  const [description, setDescription] = useState(department?.description ?? '');
  const [distribute, setDistribute] = useState(department?.distribute ?? false);
  const { formRef, errorOf, show, clear, reset, afterSave } = useFormError(FIELDS);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const result = prepareDepartment({ name, description, distribute });
    if (!result.ok) return show(result.error);
    reset();
    save.mutate({ _id: itemId, ...result.department }, afterSave(onDone));
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
      <Textarea
        label={labels.departments.description}
        description={labels.common.optional}
        autosize
        minRows={2}
        maxRows={6}
        value={description}
        onChange={(e) => setDescription(e.currentTarget.value)}
      />
      <Switch
        label={labels.departments.equalDistribution}
        description={labels.departments.equalDistributionExplanation}
        checked={distribute}
        onChange={(e) => setDistribute(e.currentTarget.checked)}
      />
    </DialogForm>
  );
}
