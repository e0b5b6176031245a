import { createHash, randomBytes } from 'node:crypto';

/** An opaque token of 256 random bits, base64url. */
export const newToken = () => randomBytes(32).toString('base64url');

/** Tokens are stored only as their SHA-256: a leaked table gives no usable token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
