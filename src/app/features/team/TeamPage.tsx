import { Button, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useDepartments, useTeamUsers } from '@/app/lib/lists';
import { SaibaMais } from '@/app/ui/HelpDialog';
import { byText, ListTable, RowActions } from '@/app/ui/ListTable';
import { PageHeader } from '@/app/ui/PageHeader';
import { useEditDialog } from '@/app/ui/use-edit-dialog';
import type { TeamUser } from '@/shared/contract/configuration';
import { labels, messages } from '@/shared/messages';
import { TeamUserDialog } from './TeamUserDialog';
import { useDeleteTeamUser } from './update-team-user';

// The owner's row first, then everyone by name.
const ownerFirst = (a: TeamUser, b: TeamUser) =>
  Number(b.user_role === 'owner') - Number(a.user_role === 'owner') || byText(a.name, b.name);

/** /equipe 'Minha Equipe' (spec 1 "Team"): the account's people; the owner's row is not editable. */
export function TeamPage() {
  const team = useTeamUsers();
  const departments = useDepartments();
  const dialog = useEditDialog<TeamUser>();
  const remove = useDeleteTeamUser();
  const departmentName = new Map((departments.data ?? []).map((d) => [d._id, d.name]));

  function departmentsOf(user: TeamUser) {
    // Owners and managers see every department (spec 1 §6).
    if (user.user_role !== 'user') return labels.common.all;
    const names = user.departments.flatMap((id) => departmentName.get(id) ?? []);
    return names.length ? (
      names.join(', ')
    ) : (
      <Text span fz="sm" c="dimmed">
        —
      </Text>
    );
  }

  return (
    <>
      <PageHeader title={labels.common.myTeam}>
        <SaibaMais topic="equipe" />
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={dialog.openNew}>
          {labels.team.newAttendant}
        </Button>
      </PageHeader>
      <ListTable
        label={labels.team.team}
        query={team}
        rowKey={(u) => u._id}
        sort={ownerFirst}
        empty="Nenhuma pessoa na equipe."
        columns={[
          { label: labels.common.name, primary: true, render: (u) => u.name },
          { label: labels.common.email, render: (u) => u.email },
          { label: labels.team.permission, render: (u) => messages.roleLabels[u.user_role] },
          { label: labels.common.departments, render: departmentsOf },
        ]}
        actions={(u) =>
          u.user_role === 'owner' ? null : (
            <RowActions
              onEdit={() => dialog.openEdit(u)}
              onDelete={() => remove.mutate(u)}
              confirmDelete={{
                title: labels.team.deleteAttendant,
                message: labels.team.confirmDeleteFromTeam(u.name),
              }}
            />
          )
        }
      />
      <TeamUserDialog dialog={dialog} />
    </>
  );
}
