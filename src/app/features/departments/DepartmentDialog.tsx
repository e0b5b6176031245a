import { Alert, Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useRef, useState } from 'react';
import type { Department } from '../../../shared/contract/configuration';
import { messages } from '../../../shared/messages';
import { prepareDepartment } from '../../../shared/rules/department';
import { errorMessage } from '../../lib/api';
import { Dialog } from '../../ui/Dialog';
import { useRevealError } from '../../ui/use-reveal-error';
import { useSaveDepartment } from './create-or-update-department';

interface DepartmentDialogProps {
  opened: boolean;
  /** The department to edit; null for a new one. */
  department: Department | null;
  /** A fresh key per opening: the form starts from `department` each time. */
  formKey: number;
  onClose(): void;
}

export function DepartmentDialog({ opened, department, formKey, onClose }: DepartmentDialogProps) {
  return (
    <Dialog
      opened={opened}
      onClose={onClose}
      title={department ? 'Editar departamento' : 'Novo departamento'}
    >
      <DepartmentForm key={formKey} department={department} onDone={onClose} />
    </Dialog>
  );
}

function DepartmentForm({ department, onDone }: { department: Department | null; onDone(): void }) {
  const save = useSaveDepartment();
  const [name, setName] = useState(department?.name ?? '');
  const [description, setDescription] = useState(department?.description ?? '');
  const [error, setError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  useRevealError(formRef, error);
  const nameError = error === messages.departmentNameRequired ? error : null;

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const result = prepareDepartment({ name, description });
    if (!result.ok) return setError(result.error);
    setError(null);
    save.mutate(
      { ...(department && { _id: department._id }), ...result.department },
      { onSuccess: onDone, onError: (err) => setError(errorMessage(err)) },
    );
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label="Nome"
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            if (nameError) setError(null);
          }}
          error={nameError}
          data-autofocus
        />
        <Textarea
          label="Descrição"
          description="Opcional"
          autosize
          minRows={2}
          maxRows={6}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        {error && !nameError && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            Cancelar
          </Button>
          <Button type="submit" loading={save.isPending}>
            Salvar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
