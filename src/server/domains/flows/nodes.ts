// What each node type decides, apart from the state machine (engine.ts): the texts with their variables, the
// menus and how a reply picks an option, the answers a question accepts, the randomizer's pick, the opening
// hours in a time zone, and the HTTP request node (no redirects, no private addresses).
import { randomInt } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { InteractiveMenu } from '../../../shared/contract/common';
import type { FlowNodeData } from '../../../shared/contract/flows';
import { messages as texts } from '../../../shared/messages';
import { normalizePhone } from '../../../shared/phone';
import { numberedMenu } from '../../../shared/rules/menu';
import { fillPlaceholders } from '../../../shared/rules/placeholders';

/** A node's failure that sends the conversation to human service with `reason` (pt-BR) in the system note. */
export class FlowError extends Error {}

/** Lower case, no accents, words separated by one space (the auto-tags' folding, tags/auto-tag.ts). */
export function fold(text: string) {
  const folded = text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('pt-BR');
  return folded
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(' ');
}

/** The contact as texts and requests read it. */
export interface ContactView {
  name: string;
  phone: string;
  tags: string[];
  data: Record<string, unknown>;
}

/**
 * {nome} is the contact's name (or its variable 'nome'), {nome:first} its first word, {key} any contact
 * variable; an unknown variable reads as nothing (the customer never sees a raw '{key}'). The one filler:
 * rules/placeholders.ts.
 */
export const fillVariables = (text: string, contact: ContactView) => fillPlaceholders(text, contact);

type MenuNode =
  | { type: 'buttons'; data: FlowNodeData['buttons'] }
  | { type: 'list'; data: FlowNodeData['list'] };

/** The menu a buttons or list node sends, and its numbered text for chips without interactive messages. */
export function menuOf(node: MenuNode, contact: ContactView) {
  const body = fillVariables(node.data.text, contact);
  const menu: InteractiveMenu = {
    kind: node.type,
    button: node.type === 'list' ? node.data.button || texts.flowListButton : null,
    options: node.data.options.map((o) => ({
      id: o.id,
      title: o.title,
      ...(o.description && { description: o.description }),
    })),
  };
  return { body, menu, fallback: numberedMenu(body, menu) };
}

/**
 * The option a reply picks: a tap answers with the option's title (the channels store a tap as its title),
 * so the title typed back, ignoring case and accents, is the same answer; or the option's number. Titles are
 * unique in a menu (rules/flow.ts), so a title names one option.
 */
export function pickOption(options: readonly { id: string; title: string }[], reply: string) {
  const said = fold(reply);
  if (!said) return null;
  const byTitle = options.find((o) => fold(o.title) === said);
  if (byTitle) return byTitle;
  const n = /^\s*(\d{1,2})\s*[.)]?\s*$/.exec(reply);
  return n ? (options[Number(n[1]) - 1] ?? null) : null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The answer a question saves, or null when the reply fails its validation. */
export function acceptAnswer(validation: FlowNodeData['question']['validation'], reply: string) {
  const text = reply.trim();
  if (!text) return null;
  switch (validation) {
    case 'none':
    case 'text':
      return text;
    case 'number': {
      const n = text.replace(/\s/g, '').replace(',', '.');
      return /^-?\d+(\.\d+)?$/.test(n) ? n : null;
    }
    case 'email':
      return EMAIL.test(text) && text.length <= 254 ? text.toLowerCase() : null;
    case 'phone': {
      const digits = text.replace(/\D/g, '');
      return digits.length >= 8 && digits.length <= 15 ? (normalizePhone(text) ?? digits) : null;
    }
    case 'date': {
      // dd/mm/aaaa (Brazil), saved as typed when it is a real date.
      const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
      if (!m) return null;
      const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
      const date = new Date(Date.UTC(y, mo - 1, d));
      const real = date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
      return real ? `${String(d).padStart(2, '0')}/${String(mo).padStart(2, '0')}/${y}` : null;
    }
  }
}

/** A randomizer's branch, each taking its percent of the runs (a cryptographic pick). */
export function pickBranch(branches: readonly { id: string; percent: number }[]) {
  const total = branches.reduce((sum, b) => sum + Math.max(0, b.percent), 0);
  if (total <= 0) return branches[0]?.id ?? null;
  let r = randomInt(0, Math.round(total * 1000)) / 1000;
  for (const b of branches) {
    r -= Math.max(0, b.percent);
    if (r < 0) return b.id;
  }
  return branches.at(-1)?.id ?? null;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** Whether `now` falls in the opening hours, read in the IANA zone `zone`. */
export function isOpen(hours: FlowNodeData['opening_hours'], zone: string, now: Date) {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(now);
  } catch {
    throw new FlowError(texts.flowTimeZoneInvalid);
  }
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = WEEKDAYS.indexOf(part('weekday'));
  const minutes = Number(part('hour')) * 60 + Number(part('minute'));
  const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  return hours.days.some(
    (d) => d.day === day && d.ranges.some((r) => minutes >= toMinutes(r.start) && minutes < toMinutes(r.end)),
  );
}

// Addresses a flow's request must not reach: this host, the private networks, link-local (cloud metadata),
// carrier-grade NAT, multicast and the reserved ranges.
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

export function isPrivateAddress(address: string) {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4');
  return blocked.check(address, 'ipv6');
}

/** The answer's value at a path like `data.items[0].name`, or undefined. */
export function readPath(value: unknown, path: string): unknown {
  const keys = path.match(/[^.[\]]+/g) ?? [];
  let at = value;
  for (const key of keys) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * The HTTP request node: GET, or POST with the contact's data as JSON. No redirect is followed; an address
 * that is private (the URL's, or what its name resolves to, checked at connection time so a second lookup
 * cannot switch it) is refused unless `allowPrivate`. Answers the status and the parsed JSON answer (or null).
 */
export async function httpRequest(
  node: FlowNodeData['http'],
  url: string,
  contact: ContactView,
  opts: { allowPrivate: boolean },
): Promise<{ status: number; json: unknown }> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new FlowError(texts.flowUrlInvalid);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new FlowError(texts.flowUrlInvalid);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!opts.allowPrivate && isIP(host) && isPrivateAddress(host)) throw new FlowError(texts.flowHttpBlocked);
  const lookup: LookupFunction = (hostname, options, callback) =>
    dnsLookup(hostname, { ...options, all: false }, (err, address, family) => {
      if (err) return callback(err, '', 0);
      if (!opts.allowPrivate && isPrivateAddress(address as string))
        return callback(Object.assign(new Error('blocked'), { code: 'EFLOWBLOCKED' }), '', 0);
      callback(null, address as string, family as number);
    });
  const body =
    node.method === 'POST'
      ? JSON.stringify({
          name: contact.name,
          phone: contact.phone,
          variables: contact.data,
          tags: contact.tags,
        })
      : undefined;
  const request = target.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: node.method,
        lookup,
        timeout: node.timeout_seconds * 1000,
        headers: {
          accept: 'application/json',
          ...(body && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new Error('answer too large'));
          else chunks.push(c);
        });
        res.on('end', () => {
          let json: unknown = null;
          try {
            json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            json = null;
          }
          resolve({ status: res.statusCode ?? 0, json });
        });
        res.on('error', reject);
      },
    );
    const timer = setTimeout(() => req.destroy(new Error('timeout')), node.timeout_seconds * 1000);
    req.on('close', () => clearTimeout(timer));
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EFLOWBLOCKED' ? new FlowError(texts.flowHttpBlocked) : err),
    );
    if (body) req.write(body);
    req.end();
  });
}
