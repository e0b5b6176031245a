// A chip's WhatsApp Web session in the database (Baileys' useMultiFileAuthState, with tables for files): the
// credentials in baileys_auth, the signal keys in baileys_keys. Every write is one transaction, so a crash
// leaves the session as it was before or after a change, never half of one; a restart, a deploy or another
// process reads it back and resumes without a new QR.
import type {
  AuthenticationCreds,
  AuthenticationState,
  SignalDataSet,
  SignalDataTypeMap,
} from '@whiskeysockets/baileys';
import type { Db } from '../../db';
import { type BaileysKey, baileysRepo } from './baileys.repo';
import { baileys, loadBaileys } from './library';

const encode = (value: unknown) => JSON.stringify(value, baileys().BufferJSON.replacer);
const decode = (text: string): unknown => JSON.parse(text, baileys().BufferJSON.reviver);

/** A stored creds row is usable only when whole: the keys every login needs are there. */
function usableCreds(value: unknown): value is AuthenticationCreds {
  if (!value || typeof value !== 'object') return false;
  const c = value as Partial<AuthenticationCreds>;
  return Boolean(
    c.noiseKey?.private &&
      c.signedIdentityKey?.private &&
      c.signedPreKey?.keyPair?.private &&
      typeof c.registrationId === 'number' &&
      typeof c.advSecretKey === 'string',
  );
}

export interface DbAuthState {
  state: AuthenticationState;
  /** Whether a saved login was read (false: a QR scan or a pairing code is needed). */
  resumed: boolean;
  /** Baileys' creds.update: the whole creds, written in one statement. */
  saveCreds(): Promise<void>;
}

/**
 * Reads the chip's session. A missing, corrupted or partial creds row starts a new session (its keys are
 * dropped with it): `onCorrupt` is told, and the chip needs a new QR instead of failing for ever.
 */
export async function loadAuthState(
  db: Db,
  chipId: string,
  onCorrupt?: (reason: string) => void,
): Promise<DbAuthState> {
  const { initAuthCreds, proto } = await loadBaileys();
  const row = await baileysRepo.creds(db, chipId);
  let creds: AuthenticationCreds | null = null;
  if (row) {
    try {
      const parsed = decode(row.creds);
      if (usableCreds(parsed)) creds = parsed;
      else onCorrupt?.('partial creds');
    } catch (err) {
      onCorrupt?.(err instanceof Error ? err.message : String(err));
    }
    if (!creds) await baileysRepo.clearSession(db, chipId);
  }
  const resumed = creds !== null && Boolean(creds.registered || creds.me);
  const current = creds ?? initAuthCreds();

  const keys: AuthenticationState['keys'] = {
    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const out: { [id: string]: SignalDataTypeMap[T] } = {};
      if (!ids.length) return out;
      const rows = await baileysRepo.keys(db, chipId, type, ids);
      for (const r of rows) {
        let value: unknown;
        try {
          value = decode(r.value);
        } catch {
          continue; // an unreadable key is a missing key: WhatsApp renegotiates it
        }
        if (type === 'app-state-sync-key' && value) {
          value = proto.Message.AppStateSyncKeyData.fromObject(value as object);
        }
        out[r.keyId] = value as SignalDataTypeMap[T];
      }
      return out;
    },
    async set(data: SignalDataSet) {
      const upserts: BaileysKey[] = [];
      const removals: Pick<BaileysKey, 'type' | 'keyId'>[] = [];
      for (const [type, entries] of Object.entries(data)) {
        for (const [keyId, value] of Object.entries(entries ?? {})) {
          if (value === null || value === undefined) removals.push({ type, keyId });
          else upserts.push({ type, keyId, value: encode(value) });
        }
      }
      if (!upserts.length && !removals.length) return;
      await baileysRepo.setKeys(db, chipId, upserts, removals);
    },
  };

  return {
    state: { creds: current, keys },
    resumed,
    async saveCreds() {
      await baileysRepo.saveCreds(db, chipId, encode(current));
    },
  };
}
