// A call of the contract: its payload and answer schemas, and who may make it. The server enforces `access`;
// the app reads the same fields to hide what the user cannot do.
import type { z } from 'zod';
import type { AccessArea, SystemUserRole, UserRole } from '../constants';

/**
 * A plan feature the account must have (spec 3 §6 plan gates): 'campaigns' is campaigns_enabled;
 * 'official-campaigns' is campaigns_enabled and max_official_channels ≥ 1; 'integrations' (follow-ups, the
 * public API and webhooks) is max_channels above 1.
 */
export type PlanFeature = 'campaigns' | 'official-campaigns' | 'integrations';

export type CallAccess =
  /** No token needed (sign-in, password recovery). */
  | { public: true }
  | {
      public?: false;
      /** Roles allowed; all roles when absent. */
      roles?: readonly UserRole[];
      /** Access area the user must hold (owners hold every area). */
      area?: AccessArea;
      /** Platform admin flag required. */
      admin?: boolean;
      /** Platform staff role required (spec 3 §6: tech_dashboard, financial_dashboard, customer_admin). */
      systemRole?: SystemUserRole;
      /** A plan feature the account must have. */
      plan?: PlanFeature;
    };

export interface CallDef<P extends z.ZodType = z.ZodType, A extends z.ZodType = z.ZodType> {
  payload: P;
  answer: A;
  access: CallAccess;
  /**
   * multipart/form-data with one file field named `file`; the other fields form the payload. `'media'`:
   * the deployment's media limit (MEDIA_MAX_MB).
   */
  upload?: { maxBytes: number | 'media' };
}

export const defineCall = <P extends z.ZodType, A extends z.ZodType, const X extends CallAccess>(
  def: CallDef<P, A> & { access: X },
) => def;
