import { Checkbox, Group, MultiSelect, PasswordInput, Radio, SimpleGrid, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useDepartments } from '@/app/lib/lists';
import { EditDialog } from '@/app/ui/Dialog';
import { DialogForm } from '@/app/ui/FormParts';
import type { EditDialogState } from '@/app/ui/use-edit-dialog';
import { useFormError } from '@/app/ui/use-form-error';
import { useItemId } from '@/app/ui/use-item-id';
import type { AccessArea } from '@/shared/constants';
import type { TeamUser } from '@/shared/contract/configuration';
import { labels, messages } from '@/shared/messages';
import { areasForRole, defaultAreas } from '@/shared/rules/access';
import { prepareTeamUser, TEAM_ROLES } from '@/shared/rules/team-user';
import { AREA_LABELS } from './access-areas';
import { useCreateTeamUser } from './create-team-user';
import { useUpdateTeamUser } from './update-team-user';

/** The fields that show their own message; anything else shows under the form. */
const FIELDS = ['email', 'role', 'departments', 'password'] as const;

/** Add or edit a team member (spec 1 "Team"): the password only on creation, departments only for agents. */
export function TeamUserDialog({ dialog }: { dialog: EditDialogState<TeamUser> }) {
  return (
    <EditDialog
      dialog={dialog}
      title={dialog.item ? labels.team.editAttendant : labels.team.newAttendant}
      size="lg"
    >
      <TeamUserForm user={dialog.item} onDone={dialog.close} />
    </EditDialog>
  );
}

function TeamUserForm({ user, onDone }: { user: TeamUser | null; onDone(): void }) {
  const itemId = useItemId(user);
  const create = useCreateTeamUser();
  const update = useUpdateTeamUser();
  const departments = useDepartments();
  const [name, setName] = useState(user?.name ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [role, setRole] = useState<string>(user?.user_role ?? 'user');
  const [departmentIds, setDepartmentIds] = useState<string[]>(user?.departments ?? []);
  const [areas, setAreas] = useState<AccessArea[]>(user?.access_areas ?? defaultAreas('user'));
  const [password, setPassword] = useState('');
  const { formRef, errorOf, show, clear, reset, afterSave } = useFormError(FIELDS);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const input = { name, email, user_role: role, departments: departmentIds, access_areas: areas };
    const result = prepareTeamUser({ ...input, password }, user ? 'update' : 'create');
    if (!result.ok) return show(result.error);
    reset();
    const done = afterSave(onDone);
    if (user) update.mutate({ _id: user._id, ...result.user }, done);
    else create.mutate({ ...result.user, password, _id: itemId }, done);
  }

  return (
    <DialogForm
      formRef={formRef}
      onSubmit={submit}
      error={errorOf('form')}
      onCancel={onDone}
      loading={create.isPending || update.isPending}
    >
      <TextInput
        label={labels.common.name}
        autoComplete="off"
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        data-autofocus
      />
      <TextInput
        label={labels.common.email}
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
        label={labels.team.permission}
        description={role === 'manager' ? labels.team.managersSeeAll : labels.team.attendantsSeeChosen}
        value={role}
        onChange={(value) => {
          setRole(value);
          // A new role starts with the areas it holds by default (a manager every one, spec 3 §6).
          if (value === 'manager' || value === 'user') setAreas(defaultAreas(value));
          clear('role');
          clear('departments');
        }}
        error={errorOf('role')}
      >
        <Group mt="xs">
          {TEAM_ROLES.map((r) => (
            <Radio key={r} value={r} label={messages.roleLabels[r]} />
          ))}
        </Group>
      </Radio.Group>
      {role === 'user' && (
        <MultiSelect
          label={labels.common.departments}
          placeholder={departmentIds.length ? undefined : labels.team.chooseDepartments}
          data={(departments.data ?? []).map((d) => ({ value: d._id, label: d.name }))}
          value={departmentIds}
          onChange={(ids) => {
            setDepartmentIds(ids);
            clear('departments');
          }}
          searchable
          nothingFoundMessage={labels.team.noDepartmentFound}
          hidePickedOptions
          error={errorOf('departments')}
        />
      )}
      <Checkbox.Group
        label={labels.team.accessAreas}
        description={labels.team.accessAreasHint}
        value={areas}
        onChange={(v) => setAreas(v as AccessArea[])}
      >
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing="xs" mt="xs">
          {areasForRole(role === 'manager' ? 'manager' : 'user').map((a) => (
            <Checkbox key={a} value={a} label={AREA_LABELS[a]} />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
      {!user && (
        <PasswordInput
          label={labels.common.password}
          description={labels.team.atLeast6Characters}
          autoComplete="new-password"
          value={password}
          onChange={(e) => {
            setPassword(e.currentTarget.value);
            clear('password');
          }}
          error={errorOf('password')}
        />
      )}
    </DialogForm>
  );
}
