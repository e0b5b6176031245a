import type { User } from '../../../shared/contract';
import { areasHeldBy, seesApiKey } from '../../../shared/rules/access';
import type { AccountRow, UserRow } from './users.repo';

/** The user as the contract answers it. Only owners and managers see the account's API key. */
export function toUserAnswer(
  user: UserRow,
  account: AccountRow,
  opts: { serverAddress: string; actingAdmin: boolean },
): User {
  return {
    _id: user.id,
    name: user.name,
    email: user.email,
    profile_picture: user.profilePicture,
    phone: user.phone,
    user_role: user.userRole,
    access_areas: areasHeldBy(user.userRole, user.accessAreas),
    system_user_roles: user.systemUserRoles,
    admin: user.admin,
    departments: user.departments,
    acting_admin: opts.actingAdmin,
    account: {
      _id: account.id,
      name: account.name,
      campaigns_enabled: account.campaignsEnabled,
      max_channels: account.maxChannels,
      max_official_channels: account.maxOfficialChannels,
      max_users: account.maxUsers,
      max_flows: account.maxFlows,
      api_key: seesApiKey(user) ? account.apiKey : null,
      subscription_status: account.subscriptionStatus,
      server: opts.serverAddress,
      official_api_server: opts.serverAddress,
    },
    config: {
      disable_notification_sound: user.disableNotificationSound,
      user_signature: user.userSignature,
    },
  };
}
