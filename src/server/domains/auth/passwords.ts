// Password hashing: argon2id with OWASP's minimum (19 MiB, t=2, p=1).
import { hash, verify } from '@node-rs/argon2';

const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// A real hash of a random password, so an unknown e-mail costs the same time as a wrong password.
let dummy: Promise<string> | null = null;
export async function burnVerify(password: string): Promise<void> {
  dummy ??= hashPassword(crypto.randomUUID());
  await verifyPassword(await dummy, password);
}
