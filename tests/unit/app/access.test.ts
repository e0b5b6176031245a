import { describe, expect, it } from 'vitest';
import { canOpen, homePath, ROUTE_NAMES, ruleForPath, safeRedirect } from '@/app/lib/access';
import { ACCESS_AREAS } from '@/shared/constants';
import type { User } from '@/shared/contract';
import { areasForRole, defaultAreas } from '@/shared/rules/access';

const user = (over: Partial<User>): User =>
  ({
    _id: 'U',
    name: 'Ana',
    email: 'ana@x.com',
    profile_picture: null,
    phone: '',
    user_role: 'user',
    access_areas: [],
    system_user_roles: [],
    admin: false,
    departments: [],
    acting_admin: false,
    config: { disable_notification_sound: false, user_signature: false },
    account: {} as User['account'],
    ...over,
  }) as User;

describe('access rules (spec 1 §2, §6)', () => {
  const owner = user({ user_role: 'owner' });
  const manager = user({ user_role: 'manager', access_areas: ['dashboard', 'contacts', 'api'] });
  const attendant = user({ user_role: 'user', access_areas: ['contacts'] });

  it('owners hold every area; the subscription is theirs alone', () => {
    for (const path of ['/', '/equipe', '/contatos', '/api', '/minha-conta', '/webhooks/ABC']) {
      expect(canOpen(owner, path), path).toBe(true);
    }
    expect(canOpen(manager, '/minha-conta')).toBe(false);
    expect(canOpen(manager, '/api')).toBe(true);
    expect(canOpen(manager, '/equipe')).toBe(false);
  });

  it('attendants reach conversations and what their areas allow, never the API', () => {
    expect(canOpen(attendant, '/equipe')).toBe(false);
    expect(canOpen(attendant, '/')).toBe(false);
    expect(canOpen(attendant, '/contatos')).toBe(true);
    expect(canOpen(attendant, ROUTE_NAMES.Atendimento)).toBe(true);
    expect(canOpen(attendant, '/conversas')).toBe(true);
    expect(canOpen(user({ access_areas: ['api'] }), '/api')).toBe(false);
  });

  it('an attendant saved earlier with more areas opens only what the server allows: contacts', () => {
    const every = user({ user_role: 'user', access_areas: [...ACCESS_AREAS] });
    for (const path of [
      '/tags',
      '/equipe',
      '/chips',
      '/departamentos',
      '/mensagens-rapidas',
      '/',
      '/campanhas',
    ]) {
      expect(canOpen(every, path), path).toBe(false);
    }
    expect(canOpen(every, '/contatos')).toBe(true);
    expect(areasForRole('user')).toEqual(['contacts']);
    expect(defaultAreas('manager')).toEqual([...ACCESS_AREAS]);
  });

  it('platform screens need the system role', () => {
    expect(canOpen(owner, '/dash-tecnico')).toBe(false);
    expect(
      canOpen(user({ user_role: 'owner', system_user_roles: ['tech_dashboard'] }), '/dash-tecnico'),
    ).toBe(true);
    expect(ruleForPath('/admin-ofertas')).toEqual({ systemRole: 'customer_admin' });
  });

  it('lands attendants on Atendimento, owners and managers on the Dashboard', () => {
    expect(homePath(attendant)).toBe('/atendimento');
    expect(homePath(owner)).toBe('/');
    expect(homePath(manager)).toBe('/');
    // A manager whose dashboard area was taken away does not land on a refusal.
    expect(homePath(user({ user_role: 'manager', access_areas: [] }))).toBe('/atendimento');
  });

  it('returns after sign-in only to paths of this site', () => {
    expect(safeRedirect('/meu-perfil?x=1')).toBe('/meu-perfil?x=1');
    for (const bad of ['//evil.com', 'https://evil.com', '/\\evil.com', 42, undefined]) {
      expect(safeRedirect(bad)).toBeNull();
    }
  });
});

describe('one rule for the app and the server (src/shared/rules/access.ts)', () => {
  it("gives the app's user answer the same decisions as the server's user row", async () => {
    const { departmentLimit, holdsArea, mayCall, seesDepartment, subjectOfAnswer } = await import(
      '@/shared/rules/access'
    );
    const answers = [
      user({ user_role: 'owner' }),
      user({ user_role: 'manager', access_areas: ['team'] }),
      user({ user_role: 'user', access_areas: ['contacts'], departments: ['D1'] }),
      user({ user_role: 'user', departments: [] }),
    ];
    for (const a of answers) {
      // The server's row, as auth.service loads it.
      const row = {
        userRole: a.user_role,
        accessAreas: a.access_areas,
        departments: a.departments,
        admin: a.admin,
        systemUserRoles: a.system_user_roles,
      };
      const s = subjectOfAnswer(a);
      expect(departmentLimit(s)).toEqual(departmentLimit(row));
      for (const d of ['D1', 'D2', null]) expect(seesDepartment(s, d)).toBe(seesDepartment(row, d));
      for (const area of ['team', 'contacts', 'api'] as const)
        expect(holdsArea(s, area)).toBe(holdsArea(row, area));
      const access = { roles: ['owner', 'manager'] as const, area: 'team' as const };
      expect(mayCall(s, access)).toBe(mayCall(row, access));
    }
    expect(seesDepartment(subjectOfAnswer(answers[2] as User), 'D2')).toBe(false);
  });
});
