// POST /api/<call>: one route for every call of the contract registry. It parses the body, checks the
// token, role, access area and admin flag the contract names, validates the payload with its schema and
// wraps the answer in the envelope. Domain handlers see only valid payloads and a signed-in user.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type CallDef, type CallName, calls, isCallName } from '../../shared/contract';
import { withoutBidiControls } from '../../shared/format';
import { messages } from '../../shared/messages';
import { assertMayCall, userActor } from '../access';
import { authenticate } from '../domains/auth/auth.service';
import type { Services } from '../services';
import type { CallContext, Handlers } from './context';
import { AppError, describeZodError, unauthorized } from './errors';
import { jsonBodyParser, pathOfNul } from './json';
import type { UploadedFile } from './upload';

const JSON_BODY_LIMIT = 2 * 1024 * 1024;

function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m?.[1] ?? null;
}

async function readUpload(
  req: FastifyRequest,
  maxBytes: number,
): Promise<{ file: UploadedFile; fields: Record<string, unknown> }> {
  if (!req.isMultipart()) throw new AppError(messages.fileRequired);
  // Every part, in any order: a client may send its fields after the file (the form's order is its own).
  const fields: Record<string, unknown> = {};
  let file: { buffer: Buffer; filename: string; mimetype: string } | null = null;
  for await (const part of req.parts({
    limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 64 * 1024 },
  })) {
    if (part.type === 'field') {
      if (part.fieldname !== '__proto__') fields[part.fieldname] = part.value;
      continue;
    }
    const buffer = await part.toBuffer(); // throws RequestFileTooLargeError past maxBytes, but not always:
    // when a read ends exactly at the limit, busboy only marks the part truncated after toBuffer's last
    // check, and the first maxBytes would pass for the whole file.
    if (part.file.truncated) throw new req.server.multipartErrors.RequestFileTooLargeError();
    file = { buffer, filename: part.filename, mimetype: part.mimetype };
  }
  // An empty part is no file (a form sent without choosing one).
  if (!file || file.buffer.length === 0) throw new AppError(messages.fileRequired);
  // The name a client gives is kept without bidi controls, wherever it is stored or shown.
  return { file: { ...file, filename: withoutBidiControls(file.filename) }, fields };
}

export async function registerApi(app: FastifyInstance, services: Services, handlers: Handlers) {
  const missing = Object.keys(calls).filter((name) => !(name in handlers));
  if (missing.length) throw new Error(`Calls without a handler: ${missing.join(', ')}`);
  const checkAnswers = services.config.NODE_ENV !== 'production';

  // JSON, leniently: an empty body is {}, any content type other than multipart is read as JSON.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: JSON_BODY_LIMIT }, jsonBodyParser(200));

  await app.register(multipart);

  app.post<{ Params: { call: string } }>('/api/:call', async (req, reply) => {
    const name = req.params.call;
    if (!isCallName(name)) throw new AppError(messages.unknownCall(name.slice(0, 80)), 404);
    const def: CallDef = calls[name];
    const handler = handlers[name as CallName] as (p: unknown, c: CallContext) => Promise<unknown>;

    const ctx: CallContext = {
      services,
      user: null,
      sessionId: null,
      ip: req.ip,
      userAgent: String(req.headers['user-agent'] ?? '').slice(0, 300),
      file: null,
    };
    if (!def.access.public) {
      const token = bearerToken(req);
      const session = token ? await authenticate(services.db, token) : null;
      if (!session) throw unauthorized();
      const actor = userActor(session.user);
      assertMayCall(actor, def.access);
      Object.assign(ctx, { user: session.user, sessionId: session.sessionId, actor });
    }

    let body: unknown = req.body ?? {};
    if (def.upload) {
      const max = def.upload.maxBytes === 'media' ? services.config.mediaMaxBytes : def.upload.maxBytes;
      const upload = await readUpload(req, max);
      ctx.file = upload.file;
      body = upload.fields;
    }
    // PostgreSQL text cannot hold U+0000; refuse it here rather than fail in the database.
    const nulAt = pathOfNul(body);
    if (nulAt !== null) throw new AppError(messages.nulCharacter(nulAt));
    const parsed = def.payload.safeParse(body, { reportInput: true });
    if (!parsed.success) throw new AppError(describeZodError(parsed.error));

    const answer = await handler(parsed.data, ctx);
    if (checkAnswers) {
      const check = def.answer.safeParse(answer);
      if (!check.success) {
        req.log.error({ call: name, issues: check.error.issues }, 'answer does not match the contract');
        throw new Error(`answer of ${name} does not match the contract`);
      }
    }
    return reply.send({ error: false, message: answer });
  });
}
