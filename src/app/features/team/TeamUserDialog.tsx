import {
  Alert,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  PasswordInput,
  Radio,
  SimpleGrid,
  Stack,
  TextInput,
} from '@mantine/core';
import { useRef, useState } from 'react';
import { ACCESS_AREAS, type AccessArea, ROLE_LABELS } from '../../../shared/constants';
import type { TeamUser } from '../../../shared/contract/configuration';
import { messages } from '../../../shared/messages';
import { prepareTeamUser, TEAM_ROLES } from '../../../shared/rules/team-user';
import { errorMessage } from '../../lib/api';
import { Dialog } from '../../ui/Dialog';
import { useRevealError } from '../../ui/use-reveal-error';
import { AREA_LABELS } from './access-areas';
import { useCreateTeamUser } from './create-team-user';
import { useDepartments } from './get-departments-by-user';
import { useUpdateTeamUser } from './update-team-user';

type Field = 'email' | 'role' | 'departments' | 'password' | 'form';

/** Which field a rule's message belongs to; anything else shows under the form. */
function fieldOf(message: string): Field {
  switch (message) {
    case messages.emailInvalid:
    case messages.emailInUse:
      return 'email';
    case messages.teamRoleInvalid:
      return 'role';
    case messages.teamDepartmentRequired:
      return 'departments';
    case messages.teamPasswordTooShort:
      return 'password';
    default:
      return 'form';
  }
}

interface TeamUserDialogProps {
  opened: boolean;
  /** The member to edit; null for a new one. */
  user: TeamUser | null;
  /** A fresh key per opening: the form starts from `user` each time. */
  formKey: number;
  onClose(): void;
}

/** Add or edit a team member (spec 1 "Team"): the password only on creation, departments only for agents. */
export function TeamUserDialog({ opened, user, formKey, onClose }: TeamUserDialogProps) {
  return (
    <Dialog opened={opened} onClose={onClose} title={user ? 'Editar atendente' : 'Novo atendente'} size="lg">
      <TeamUserForm key={formKey} user={user} onDone={onClose} />
    </Dialog>
  );
}

function TeamUserForm({ user, onDone }: { user: TeamUser | null; onDone(): void }) {
  const create = useCreateTeamUser();
  const update = useUpdateTeamUser();
  const departments = useDepartments();
  const [name, setName] = useState(user?.name ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [role, setRole] = useState<string>(user?.user_role ?? 'user');
  const [departmentIds, setDepartmentIds] = useState<string[]>(user?.departments ?? []);
  const [areas, setAreas] = useState<AccessArea[]>(user?.access_areas ?? ['contacts']);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<{ field: Field; message: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  useRevealError(formRef, error);
  const errorOf = (field: Field) => (error?.field === field ? error.message : null);
  const show = (message: string) => setError({ field: fieldOf(message), message });
  // A field's message goes away as soon as the field is changed.
  const clear = (field: Field) => setError((e) => (e?.field === field ? null : e));

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const input = { name, email, user_role: role, departments: departmentIds, access_areas: areas };
    const result = prepareTeamUser({ ...input, password }, user ? 'update' : 'create');
    if (!result.ok) return show(result.error);
    setError(null);
    const done = { onSuccess: onDone, onError: (err: unknown) => show(errorMessage(err)) };
    if (user) update.mutate({ _id: user._id, ...result.user }, done);
    else create.mutate({ ...result.user, password }, done);
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label="Nome"
          autoComplete="off"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          data-autofocus
        />
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => {
            setEmail(e.currentTarget.value);
            clear('email');
          }}
          error={errorOf('email')}
        />
        <Radio.Group
          label="Permissão"
          description={
            role === 'manager'
              ? 'Gerentes veem todos os departamentos e chips.'
              : 'Atendentes veem apenas os departamentos escolhidos.'
          }
          value={role}
          onChange={(value) => {
            setRole(value);
            clear('role');
            clear('departments');
          }}
          error={errorOf('role')}
        >
          <Group mt="xs">
            {TEAM_ROLES.map((r) => (
              <Radio key={r} value={r} label={ROLE_LABELS[r]} />
            ))}
          </Group>
        </Radio.Group>
        {role === 'user' && (
          <MultiSelect
            label="Departamentos"
            placeholder={departmentIds.length ? undefined : 'Escolha os departamentos'}
            data={(departments.data ?? []).map((d) => ({ value: d._id, label: d.name }))}
            value={departmentIds}
            onChange={(ids) => {
              setDepartmentIds(ids);
              clear('departments');
            }}
            searchable
            nothingFoundMessage="Nenhum departamento encontrado"
            hidePickedOptions
            error={errorOf('departments')}
          />
        )}
        <Checkbox.Group
          label="Áreas de acesso"
          description="As telas que esta pessoa pode abrir."
          value={areas}
          onChange={(v) => setAreas(v as AccessArea[])}
        >
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing="xs" mt="xs">
            {ACCESS_AREAS.map((a) => (
              <Checkbox key={a} value={a} label={AREA_LABELS[a]} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        {!user && (
          <PasswordInput
            label="Senha"
            description="Pelo menos 6 caracteres."
            autoComplete="new-password"
            value={password}
            onChange={(e) => {
              setPassword(e.currentTarget.value);
              clear('password');
            }}
            error={errorOf('password')}
          />
        )}
        {errorOf('form') && (
          <Alert color="red" role="alert">
            {errorOf('form')}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            Cancelar
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            Salvar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
